// Package synth writes large synthetic file-based catalogs for benchmarks.
// They look like real community catalogs: one catalog file per package, a
// package icon, channels with replaces chains, skips and skip ranges, and
// bundles carrying olm.gvk properties, related images and olm.csv.metadata
// with CRD descriptions and descriptors, keywords, links and a long
// description. Content is derived from a seed, so every run writes the same
// bytes.
package synth

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/fbcat/opm/declcfg"
)

// Options sizes a catalog.
type Options struct {
	Packages          int
	BundlesPerPackage int
	Format            declcfg.Format
	Seed              uint64
}

// Large is the benchmark catalog: 320 packages of 20 bundles (6400), about
// 100 MB of YAML.
var Large = Options{Packages: 320, BundlesPerPackage: 20, Format: declcfg.FormatYAML, Seed: 1}

var words = strings.Fields(`operator cluster manages deploys scales upgrades backups restores monitors
configures database cache queue stream storage network security policy certificate gateway mesh
observability metrics logging tracing pipeline workflow serverless function event broker registry
kubernetes openshift namespace resource custom controller reconcile status spec condition replica
high availability failover snapshot volume encryption authentication authorization tenant quota`)

// Write writes a catalog under dir (which must exist), one directory per
// package.
func Write(dir string, o Options) error {
	r := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	for p := 0; p < o.Packages; p++ {
		cfg := Package(r, p, o.BundlesPerPackage)
		pkgDir := filepath.Join(dir, cfg.Packages[0].Name)
		if err := os.MkdirAll(pkgDir, 0o755); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(pkgDir, "catalog"+o.Format.Ext()))
		if err != nil {
			return err
		}
		if err := declcfg.Write(cfg, f, o.Format); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

func sentence(r *rand.Rand, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = words[r.IntN(len(words))]
	}
	s := strings.Join(out, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func paragraph(r *rand.Rand, sentences int) string {
	out := make([]string, sentences)
	for i := range out {
		out[i] = sentence(r, 6+r.IntN(14))
	}
	return strings.Join(out, " ")
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

type kind struct{ group, kind, version, plural string }

// Package builds package number i with n bundles.
func Package(r *rand.Rand, i, n int) *declcfg.DeclarativeConfig {
	name := fmt.Sprintf("%s-%s-operator-%03d", words[r.IntN(len(words))], words[r.IntN(len(words))], i)
	group := fmt.Sprintf("%s.example%03d.io", words[r.IntN(len(words))], i)
	var kinds []kind
	for k := 0; k < 2+r.IntN(5); k++ {
		w := words[r.IntN(len(words))]
		kn := strings.ToUpper(w[:1]) + w[1:] + fmt.Sprint(k)
		kinds = append(kinds, kind{group, kn, "v1", strings.ToLower(kn) + "s"})
	}
	icon := make([]byte, 4000+r.IntN(8000))
	for j := range icon {
		icon[j] = byte(r.IntN(256))
	}
	copy(icon, "\x89PNG\r\n\x1a\n")
	cfg := &declcfg.DeclarativeConfig{}
	cfg.Packages = append(cfg.Packages, declcfg.Package{
		Schema: declcfg.SchemaPackage, Name: name, DefaultChannel: "stable",
		Icon:        &declcfg.Icon{Data: icon, MediaType: "image/png"},
		Description: paragraph(r, 4),
	})
	stable := declcfg.Channel{Schema: declcfg.SchemaChannel, Name: "stable", Package: name}
	fast := declcfg.Channel{Schema: declcfg.SchemaChannel, Name: "fast", Package: name}
	prev := ""
	longDescription := paragraph(r, 30+r.IntN(30))
	for b := 0; b < n; b++ {
		version := fmt.Sprintf("%d.%d.%d", 1+b/10, b%10, r.IntN(3))
		bname := fmt.Sprintf("%s.v%s", name, version)
		entry := declcfg.ChannelEntry{Name: bname, Replaces: prev}
		if b%5 == 4 {
			entry.SkipRange = fmt.Sprintf(">=%d.0.0 <%s", 1+b/10, version)
		}
		stable.Entries = append(stable.Entries, entry)
		fast.Entries = append(fast.Entries, entry)
		prev = bname
		if b%7 == 6 {
			// A new paragraph now and then, as descriptions evolve.
			longDescription += " " + paragraph(r, 3)
		}
		cfg.Bundles = append(cfg.Bundles, bundle(r, name, bname, version, kinds, longDescription))
	}
	cfg.Channels = append(cfg.Channels, stable, fast)
	return cfg
}

func bundle(r *rand.Rand, pkg, name, version string, kinds []kind, description string) declcfg.Bundle {
	image := fmt.Sprintf("quay.io/example/%s-bundle@sha256:%064x", pkg, r.Uint64())
	b := declcfg.Bundle{Schema: declcfg.SchemaBundle, Name: name, Package: pkg, Image: image}
	var owned []map[string]any
	var examples []map[string]any
	for _, k := range kinds {
		b.Properties = append(b.Properties, declcfg.Property{Type: declcfg.PropertyGVK, Value: mustJSON(map[string]string{"group": k.group, "kind": k.kind, "version": k.version})})
		var specs []map[string]any
		for d := 0; d < 4+r.IntN(8); d++ {
			w := words[r.IntN(len(words))]
			specs = append(specs, map[string]any{
				"path": fmt.Sprintf("spec.%s%d", w, d), "displayName": strings.ToUpper(w[:1]) + w[1:],
				"description":   sentence(r, 8+r.IntN(10)),
				"x-descriptors": []string{"urn:alm:descriptor:com.tectonic.ui:text", "urn:alm:descriptor:com.tectonic.ui:fieldGroup:" + w},
			})
		}
		owned = append(owned, map[string]any{
			"name": k.plural + "." + k.group, "version": k.version, "kind": k.kind, "displayName": k.kind,
			"description":       sentence(r, 10),
			"resources":         []map[string]string{{"kind": "Deployment", "name": "", "version": "v1"}, {"kind": "Service", "name": "", "version": "v1"}},
			"specDescriptors":   specs,
			"statusDescriptors": []map[string]any{{"path": "conditions", "displayName": "Conditions", "x-descriptors": []string{"urn:alm:descriptor:io.kubernetes.conditions"}}},
		})
		examples = append(examples, map[string]any{"apiVersion": k.group + "/" + k.version, "kind": k.kind, "metadata": map[string]string{"name": "example"}, "spec": map[string]any{"size": 3}})
	}
	b.Properties = append(b.Properties, declcfg.Property{Type: declcfg.PropertyPackage, Value: mustJSON(map[string]string{"packageName": pkg, "version": version})})
	csv := map[string]any{
		"annotations": map[string]string{
			"alm-examples":   string(mustJSON(examples)),
			"capabilities":   "Full Lifecycle",
			"categories":     "Database, Storage",
			"containerImage": fmt.Sprintf("quay.io/example/%s@sha256:%064x", pkg, r.Uint64()),
			"createdAt":      fmt.Sprintf("2026-%02d-%02dT10:00:00Z", 1+r.IntN(12), 1+r.IntN(28)),
			"repository":     "https://github.com/example/" + pkg,
			"support":        "Example, Inc.",
		},
		"apiServiceDefinitions": map[string]any{},
		"crdDescriptions":       map[string]any{"owned": owned},
		"description":           description,
		"displayName":           strings.ReplaceAll(pkg, "-", " "),
		"installModes": []map[string]any{
			{"supported": true, "type": "OwnNamespace"}, {"supported": true, "type": "SingleNamespace"},
			{"supported": false, "type": "MultiNamespace"}, {"supported": true, "type": "AllNamespaces"},
		},
		"keywords":       []string{words[r.IntN(len(words))], words[r.IntN(len(words))], "operator"},
		"links":          []map[string]string{{"name": "Documentation", "url": "https://example.com/docs/" + pkg}},
		"maintainers":    []map[string]string{{"email": "maintainers@example.com", "name": "Example Maintainers"}},
		"maturity":       "stable",
		"minKubeVersion": "1.25.0",
		"provider":       map[string]string{"name": "Example, Inc."},
	}
	b.Properties = append(b.Properties, declcfg.Property{Type: declcfg.PropertyCSVMetadata, Value: mustJSON(csv)})
	for i := 0; i < 2+r.IntN(4); i++ {
		b.RelatedImages = append(b.RelatedImages, declcfg.RelatedImage{
			Name:  fmt.Sprintf("operand-%d", i),
			Image: fmt.Sprintf("quay.io/example/%s-operand-%d@sha256:%064x", pkg, i, r.Uint64()),
		})
	}
	b.RelatedImages = append(b.RelatedImages, declcfg.RelatedImage{Image: image})
	return b
}
