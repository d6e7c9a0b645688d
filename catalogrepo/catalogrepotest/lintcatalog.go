package catalogrepotest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

// writeCatalogs renders the bundle directories and writes each catalog:
// the package, channels stable and candidates (every bundle, each
// replacing the one before), and the bundles, with their manifests
// (ObjectCatalogs) or their CSV metadata (MetaCatalogs).
func writeCatalogs(root, pkg string, dirs []string, o LintRepo) error {
	var objects, metas []declcfg.Bundle
	migrate, err := render.MigrationsFor("bundle-object-to-csv-metadata")
	if err != nil {
		return err
	}
	for _, dir := range dirs {
		b, err := render.BundleFromDir(dir, "quay.io/example/"+pkg+"-bundle:v"+filepath.Base(dir))
		if err != nil {
			return err
		}
		objects = append(objects, *b)
		if len(o.MetaCatalogs) > 0 {
			m := *b
			m.Properties = slices.Clone(b.Properties)
			if err := migrate.Run(&m); err != nil {
				return err
			}
			metas = append(metas, m)
		}
	}
	cfg := declcfg.DeclarativeConfig{
		Packages: []declcfg.Package{{Schema: declcfg.SchemaPackage, Name: pkg, DefaultChannel: "stable"}},
	}
	for _, ch := range []string{"candidates", "stable"} {
		c := declcfg.Channel{Schema: declcfg.SchemaChannel, Name: ch, Package: pkg}
		for i, b := range objects {
			e := declcfg.ChannelEntry{Name: b.Name}
			if i > 0 {
				e.Replaces = objects[i-1].Name
			}
			c.Entries = append(c.Entries, e)
		}
		cfg.Channels = append(cfg.Channels, c)
	}
	for _, set := range []struct {
		names   []string
		bundles []declcfg.Bundle
	}{{o.ObjectCatalogs, objects}, {o.MetaCatalogs, metas}} {
		cfg.Bundles = set.bundles
		var buf bytes.Buffer
		if err := declcfg.Write(&cfg, &buf, declcfg.FormatYAML); err != nil {
			return err
		}
		for _, name := range set.names {
			dir := filepath.Join(root, "catalogs", name, pkg)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "catalog.yaml"), buf.Bytes(), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
