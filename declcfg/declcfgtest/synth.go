// Package declcfgtest writes large synthetic file-based catalogs for
// benchmarks and tests, shaped like real community catalogs so that what
// is measured is what users run:
//
//   - many small packages and a few large ones with hundreds of bundles;
//   - bundles of three eras: ones that carry their manifests as
//     olm.bundle.object properties (base64 of the JSON of a whole
//     ClusterServiceVersion, with its icon, and of CRDs of 4 to 120 KB),
//     ones that carry olm.csv.metadata instead, and packages that moved
//     from the first to the second;
//   - markdown descriptions and pretty-printed alm-examples (block scalars
//     in YAML), icons, channels with replaces chains, skips and skip
//     ranges, related images, a few deprecations;
//   - YAML and JSON files, most packages in one file, some split into a
//     package file, a channels file and one file per bundle.
//
// Everything is derived from the seed: every run writes the same bytes.
//
// It also writes the sources of synthetic operator repositories
// (WriteRepoSources); author/authortest renders their catalogs. The
// package sits under declcfg, the one package it builds on, so that the
// tests of every layer above may use it.
package declcfgtest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/parallel"
)

// Options sizes a catalog.
type Options struct {
	Packages int    // number of packages
	Bundles  int    // about how many bundles, spread over the packages
	Seed     uint64 // the catalog is a function of the options
}

// Large is the catalog of e2e/bench.sh: 320 packages, about 5,000
// bundles, about 130 MB.
var Large = Options{Packages: 320, Bundles: 5000, Seed: 1}

// generation changes whenever the content for the same options changes,
// so that catalogs cached under Name are not reused after such a change.
const generation = 2

// Name says what a catalog holds, for caching it (see BenchmarkCatalog).
func (o Options) Name() string {
	return fmt.Sprintf("opm-bench-g%d-%dp-%db-s%d", generation, o.Packages, o.Bundles, o.Seed)
}

// era says how a package's bundles carry their ClusterServiceVersion.
type era uint8

const (
	eraMetadata era = iota // olm.csv.metadata
	eraObjects             // olm.bundle.object: the CSV, the CRDs and the other manifests
	eraMigrated            // the older half as objects, the newer as metadata
)

// plan is what is decided for a package before it is made.
type plan struct {
	bundles int
	era     era
	format  declcfg.Format
	split   bool // package, channels and each bundle in files of their own
}

// plans decides the size and form of every package: a quarter of the
// bundles go to one package in 80 (at least one), the rest are spread
// unevenly over the others.
func (o Options) plans() []plan {
	r := rand.New(rand.NewPCG(o.Seed, 0))
	plans := make([]plan, o.Packages)
	big := max(1, o.Packages/80)
	if o.Packages <= 1 {
		big = o.Packages
	}
	bigBundles := o.Bundles / 4
	if big == o.Packages {
		bigBundles = o.Bundles
	}
	weights := make([]float64, o.Packages)
	total := 0.0
	for i := big; i < o.Packages; i++ {
		weights[i] = 0.2 + r.ExpFloat64()
		total += weights[i]
	}
	order := r.Perm(o.Packages) // where the big packages fall
	for k, i := range order {
		p := &plans[i]
		if k < big {
			p.bundles = bigBundles / big
		} else {
			p.bundles = max(1, int(float64(o.Bundles-bigBundles)*weights[k]/total+0.5))
		}
		switch x := r.IntN(20); {
		case x < 2:
			p.era = eraObjects
		case x < 4:
			p.era = eraMigrated
		}
		p.format = declcfg.FormatYAML
		if r.IntN(3) == 0 {
			p.format = declcfg.FormatJSON
		}
		p.split = r.IntN(6) == 0
	}
	return plans
}

// Write writes a catalog under dir (which must exist), one directory per
// package.
func Write(dir string, o Options) error {
	plans := o.plans()
	return parallel.Do(context.Background(), len(plans), 0, func(i int) error {
		return writePackage(dir, o.Seed, i, plans[i])
	})
}

func writePackage(dir string, seed uint64, i int, p plan) error {
	r := rand.New(rand.NewPCG(seed, uint64(i)+1))
	cfg := makePackage(r, i, p)
	pkgDir := filepath.Join(dir, cfg.Packages[0].Name)
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		return err
	}
	if !p.split {
		return writeFile(filepath.Join(pkgDir, "catalog"+p.format.Ext()), cfg, p.format)
	}
	if err := writeFile(filepath.Join(pkgDir, "package.yaml"), &declcfg.DeclarativeConfig{Packages: cfg.Packages, Deprecations: cfg.Deprecations}, declcfg.FormatYAML); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(pkgDir, "channels"+p.format.Ext()), &declcfg.DeclarativeConfig{Channels: cfg.Channels}, p.format); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(pkgDir, "bundles"), 0o755); err != nil {
		return err
	}
	for _, b := range cfg.Bundles {
		if err := writeFile(filepath.Join(pkgDir, "bundles", b.Name+p.format.Ext()), &declcfg.DeclarativeConfig{Bundles: []declcfg.Bundle{b}}, p.format); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, cfg *declcfg.DeclarativeConfig, f declcfg.Format) error {
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := declcfg.Write(cfg, file, f); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// makePackage builds package number i as planned.
func makePackage(r *rand.Rand, i int, p plan) *declcfg.DeclarativeConfig {
	op := &operator{
		pkg:   fmt.Sprintf("%s-%s-operator-%03d", word(r), word(r), i),
		group: fmt.Sprintf("%s.example%03d.io", word(r), i),
		icon:  randomBytes(r, 3000+r.IntN(9000)),
	}
	copy(op.icon, "\x89PNG\r\n\x1a\n")
	for k := 0; k < 1+r.IntN(4); k++ {
		op.kinds = append(op.kinds, newKind(r, op.group, k, logUniform(r, 4000, 120000)))
	}
	op.rules = rbacRules(r, op.kinds)
	op.description = markdown(r, op.pkg, 2+r.IntN(6))
	cfg := &declcfg.DeclarativeConfig{}
	cfg.Packages = append(cfg.Packages, declcfg.Package{
		Schema: declcfg.SchemaPackage, Name: op.pkg, DefaultChannel: "stable",
		Icon:        &declcfg.Icon{Data: op.icon, MediaType: "image/png"},
		Description: op.description,
	})
	cfg.Bundles = make([]declcfg.Bundle, 0, p.bundles)
	var names []string
	for b := 0; b < p.bundles; b++ {
		version := fmt.Sprintf("%d.%d.%d", 1+b/40, b%40/8, b%8)
		name := fmt.Sprintf("%s.v%s", op.pkg, version)
		objects := p.era == eraObjects || p.era == eraMigrated && b < p.bundles/2
		replaces := ""
		if b > 0 {
			replaces = names[b-1]
		}
		cfg.Bundles = append(cfg.Bundles, op.bundle(r, name, version, replaces, objects))
		names = append(names, name)
		if b%3 == 2 {
			op.kinds[r.IntN(len(op.kinds))].evolve(r)
		}
		if b%9 == 8 {
			op.description += "\n\n" + paragraph(r, 2) // descriptions grow
		}
	}
	cfg.Channels = channels(op.pkg, names)
	if r.IntN(8) == 0 && len(names) > 1 {
		cfg.Deprecations = append(cfg.Deprecations, declcfg.Deprecation{
			Schema: declcfg.SchemaDeprecations, Package: op.pkg,
			Entries: []declcfg.DeprecationEntry{
				{Reference: declcfg.PackageScopedReference{Schema: declcfg.SchemaBundle, Name: names[0]}, Message: names[0] + " has a known security issue; upgrade to a newer version.\n"},
				{Reference: declcfg.PackageScopedReference{Schema: declcfg.SchemaChannel, Name: "fast"}, Message: "The fast channel is no longer updated; use stable."},
			},
		})
	}
	return cfg
}

// channels are "stable" and "fast" over every bundle (a replaces chain,
// with skips and skip ranges now and then) and, for packages with more
// than one major version, one channel per major version.
func channels(pkg string, names []string) []declcfg.Channel {
	stable := declcfg.Channel{Schema: declcfg.SchemaChannel, Name: "stable", Package: pkg}
	for b, name := range names {
		e := declcfg.ChannelEntry{Name: name}
		if b > 0 {
			e.Replaces = names[b-1]
		}
		if b%7 == 6 {
			// Skipped versions leave the replaces chain.
			e.Replaces, e.Skips = names[b-3], []string{names[b-2], names[b-1]}
		}
		if b%5 == 4 {
			e.SkipRange = fmt.Sprintf(">=%d.0.0 <%d.%d.%d", 1+b/40, 1+b/40, b%40/8, b%8)
		}
		stable.Entries = append(stable.Entries, e)
	}
	fast := stable
	fast.Name = "fast"
	out := []declcfg.Channel{stable, fast}
	for major := 0; major*40 < len(names) && len(names) > 40; major++ {
		ch := declcfg.Channel{Schema: declcfg.SchemaChannel, Name: fmt.Sprintf("stable-v%d", major+1), Package: pkg}
		for b := major * 40; b < min(len(names), (major+1)*40); b++ {
			e := declcfg.ChannelEntry{Name: names[b]}
			if b > major*40 {
				e.Replaces = names[b-1]
			}
			ch.Entries = append(ch.Entries, e)
		}
		out = append(out, ch)
	}
	return out
}

// bundle makes one bundle, carrying its CSV as bundle objects or as CSV
// metadata.
func (op *operator) bundle(r *rand.Rand, name, version, replaces string, objects bool) declcfg.Bundle {
	image := fmt.Sprintf("quay.io/example/%s-bundle@sha256:%016x%016x%016x%016x", op.pkg, r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64())
	b := declcfg.Bundle{Schema: declcfg.SchemaBundle, Name: name, Package: op.pkg, Image: image}
	for _, k := range op.kinds {
		b.Properties = append(b.Properties, declcfg.Property{Type: declcfg.PropertyGVK, Value: mustJSON(map[string]string{"group": k.group, "kind": k.kind, "version": k.version})})
	}
	if len(op.pkg)%3 == 0 {
		b.Properties = append(b.Properties, declcfg.Property{Type: "olm.maxOpenShiftVersion", Value: mustJSON("4.18")})
	}
	b.Properties = append(b.Properties, declcfg.Property{Type: declcfg.PropertyPackage, Value: mustJSON(map[string]string{"packageName": op.pkg, "version": version})})
	meta := op.csvMetadata(r, version)
	var images []string
	for i := 0; i < 1+r.IntN(4); i++ {
		images = append(images, fmt.Sprintf("quay.io/example/%s-operand-%d@sha256:%016x%016x%016x%016x", op.pkg, i, r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()))
	}
	if objects {
		manifests := []any{op.csv(r, name, version, replaces, meta, images)}
		for _, k := range op.kinds {
			manifests = append(manifests, k.crd())
		}
		manifests = append(manifests, op.smallObjects(r)...)
		for _, m := range manifests {
			data := base64.StdEncoding.EncodeToString(mustJSON(m))
			b.Properties = append(b.Properties, declcfg.Property{Type: declcfg.PropertyBundleObject, Value: mustJSON(map[string]string{"data": data})})
		}
	} else {
		b.Properties = append(b.Properties, declcfg.Property{Type: declcfg.PropertyCSVMetadata, Value: mustJSON(meta)})
	}
	b.RelatedImages = append(b.RelatedImages, declcfg.RelatedImage{Image: image})
	b.RelatedImages = append(b.RelatedImages, declcfg.RelatedImage{Name: "manager", Image: meta["annotations"].(map[string]string)["containerImage"]})
	for i, img := range images {
		b.RelatedImages = append(b.RelatedImages, declcfg.RelatedImage{Name: fmt.Sprintf("operand-%d", i), Image: img})
	}
	// As upstream's render leaves them.
	slices.SortFunc(b.RelatedImages, func(x, y declcfg.RelatedImage) int {
		switch {
		case x.Image < y.Image:
			return -1
		case x.Image > y.Image:
			return 1
		}
		return 0
	})
	return b
}
