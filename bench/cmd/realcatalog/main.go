// Command realcatalog writes a file-based catalog made from real bundle
// directories, for benchmarks on the catalogs users have: every bundle
// directory of an operators/ tree (community-operators-prod's, for one),
// rendered as `opm render DIR --migrate-level
// bundle-object-to-csv-metadata` renders it, grouped into one package
// per operator with its channels, and written as `opm render -o json`
// writes a catalog, one DIR/PACKAGE/catalog.json per package:
//
//	realcatalog OPERATORS DIR
//
// Each bundle's image is quay.io/community-operator-pipeline-prod/
// PACKAGE:VERSION (the community pipeline's name for it). Its package
// and channels are its annotations' (the default channel is the
// annotation, else the first channel of the newest bundle); a channel's
// entries are its bundles in version order, each replacing the one before,
// with its CSV's skipRange when that parses, so that every channel has
// one head and validates. Bundle directories that do not render, or whose
// images are not valid references, are left out and counted on standard
// error.
package main

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/distribution/reference"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/registryv1"
	"github.com/fbcat/opm/render"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: realcatalog OPERATORS DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "realcatalog:", err)
		os.Exit(1)
	}
}

// bundle is one rendered bundle directory and what its channels need.
type bundle struct {
	fbc            declcfg.Bundle
	version        semver.Version
	channels       []string
	defaultChannel string
	skipRange      string
}

func run(operators, out string) error {
	migrate, err := render.MigrationsFor("bundle-object-to-csv-metadata")
	if err != nil {
		return err
	}
	ops, err := os.ReadDir(operators)
	if err != nil {
		return err
	}
	pkgs := map[string][]bundle{}
	skipped := 0
	for _, op := range ops {
		dirs, err := os.ReadDir(filepath.Join(operators, op.Name()))
		if err != nil || !op.IsDir() {
			continue
		}
		for _, d := range dirs {
			dir := filepath.Join(operators, op.Name(), d.Name())
			if !d.IsDir() || !render.IsBundleDir(dir) {
				continue
			}
			b, err := readBundle(dir, migrate)
			if err != nil {
				skipped++
				continue
			}
			pkgs[b.fbc.Package] = append(pkgs[b.fbc.Package], *b)
		}
	}
	cfg := &declcfg.DeclarativeConfig{}
	for _, name := range slices.Sorted(maps.Keys(pkgs)) {
		addPackage(cfg, name, pkgs[name])
	}
	if err := declcfg.WriteDir(cfg, out, declcfg.FormatJSON); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d packages, %d bundles; %d bundle directories did not render\n",
		len(cfg.Packages), len(cfg.Bundles), skipped)
	return nil
}

// readBundle renders one bundle directory with its CSV metadata.
func readBundle(dir string, migrate render.Migrations) (*bundle, error) {
	rb, err := registryv1.Parse(os.DirFS(dir))
	if err != nil {
		return nil, err
	}
	v, err := semver.Parse(rb.Version)
	if err != nil || rb.Package == "" || len(rb.Channels) == 0 {
		return nil, fmt.Errorf("%s: no version, package or channel", dir)
	}
	image := "quay.io/community-operator-pipeline-prod/" + rb.Package + ":" + rb.Version
	fbc, err := render.BundleFromDir(dir, image)
	if err != nil {
		return nil, err
	}
	if err := migrate.Run(fbc); err != nil {
		return nil, err
	}
	b := &bundle{
		fbc:            *fbc,
		version:        v,
		channels:       rb.Channels,
		defaultChannel: rb.DefaultChannel,
	}
	if r := rb.CSV.StringAt("metadata", "annotations", "olm.skipRange"); r != "" {
		if _, err := semver.ParseRange(r); err == nil {
			b.skipRange = r
		}
	}
	for _, ri := range fbc.RelatedImages {
		if _, err := reference.ParseNormalizedNamed(ri.Image); ri.Image != "" && err != nil {
			return nil, err
		}
	}
	return b, nil
}

// addPackage adds a package, its channels and its bundles (oldest first).
func addPackage(cfg *declcfg.DeclarativeConfig, name string, bundles []bundle) {
	slices.SortStableFunc(bundles, func(a, b bundle) int {
		return cmp.Or(a.version.Compare(b.version), strings.Compare(a.fbc.Name, b.fbc.Name))
	})
	bundles = slices.CompactFunc(bundles, func(a, b bundle) bool { return a.fbc.Name == b.fbc.Name })
	newest := bundles[len(bundles)-1]
	def := newest.defaultChannel
	if def == "" {
		def = newest.channels[0]
	}
	channels := map[string]*declcfg.Channel{}
	for _, b := range bundles {
		for _, ch := range b.channels {
			c := channels[ch]
			if c == nil {
				c = &declcfg.Channel{Schema: declcfg.SchemaChannel, Name: ch, Package: name}
				channels[ch] = c
			}
			e := declcfg.ChannelEntry{Name: b.fbc.Name, SkipRange: b.skipRange}
			if n := len(c.Entries); n > 0 {
				e.Replaces = c.Entries[n-1].Name
			}
			c.Entries = append(c.Entries, e)
		}
	}
	if channels[def] == nil {
		def = newest.channels[0]
	}
	cfg.Packages = append(cfg.Packages, declcfg.Package{Schema: declcfg.SchemaPackage, Name: name, DefaultChannel: def})
	for _, ch := range slices.Sorted(maps.Keys(channels)) {
		cfg.Channels = append(cfg.Channels, *channels[ch])
	}
	for _, b := range bundles {
		cfg.Bundles = append(cfg.Bundles, b.fbc)
	}
}
