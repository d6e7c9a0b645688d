package declcfgtest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/fbcat/opm/declcfg"
)

// RepoOptions sizes a synthetic operator repository (the layout of
// community-operators-prod) for the catalog authoring benchmarks.
type RepoOptions struct {
	Templates int    // basic templates, one per OpenShift version from 4.12
	Bundles   int    // bundles released so far, in every template
	Seed      uint64 // the repository is a function of the options
}

// BenchRepo is the repository the authoring benchmarks use: 20 templates
// of 500 bundles, about the size of the largest community operators.
var BenchRepo = RepoOptions{Templates: 20, Bundles: 500, Seed: 1}

// Name names a repository directory after its options.
func (o RepoOptions) Name() string {
	return fmt.Sprintf("opm-bench-repo-%dt-%db-%d", o.Templates, o.Bundles, o.Seed)
}

// RepoOperator is the operator directory's name in a synthetic
// repository.
const RepoOperator = "bench"

// NextVersion is the version of the bundle directory a synthetic
// repository holds ready to release (operators/bench/<NextVersion>).
func (o RepoOptions) NextVersion() string { return repoVersion(o.Bundles) }

func repoVersion(b int) string { return fmt.Sprintf("%d.%d.%d", 1+b/40, b%40/8, b%8) }

// WriteRepoSources writes a repository's sources under dir:
// operators/bench/ci.yaml mapping the templates v4.12.yaml, v4.13.yaml,
// ... to catalogs v4.12, v4.13, ...; the basic templates (stable: every
// bundle; fast: all but the newest); and the directory of the next bundle
// with a release-config.yaml naming every template. It returns the
// bundles the templates name, from which the catalogs are rendered
// (author/authortest does that).
func WriteRepoSources(dir string, o RepoOptions) ([]declcfg.Bundle, error) {
	r := rand.New(rand.NewPCG(o.Seed, 7))
	op := repoOperator(r)
	var bundles []declcfg.Bundle
	var names []string
	for b := 0; b < o.Bundles; b++ {
		name := fmt.Sprintf("%s.v%s", op.pkg, repoVersion(b))
		replaces := ""
		if b > 0 {
			replaces = names[b-1]
		}
		bundles = append(bundles, op.bundle(r, name, repoVersion(b), replaces, true))
		names = append(names, name)
	}
	opDir := filepath.Join(dir, "operators", RepoOperator)
	if err := writeRepoTemplates(opDir, o, op.pkg, names, bundles); err != nil {
		return nil, err
	}
	if err := writeNextBundle(r, op, filepath.Join(opDir, o.NextVersion()), o, names[len(names)-1]); err != nil {
		return nil, err
	}
	return bundles, nil
}

// repoOperator is the benchmark repository's operator: small kinds, so
// that 500 bundles with their objects make catalogs of a few MB.
func repoOperator(r *rand.Rand) *operator {
	op := &operator{pkg: "bench-operator", group: "bench.example.io", icon: randomBytes(r, 2000)}
	copy(op.icon, "\x89PNG\r\n\x1a\n")
	for k := 0; k < 2; k++ {
		op.kinds = append(op.kinds, newKind(r, op.group, k, 2000))
	}
	op.rules = rbacRules(r, op.kinds)
	op.description = markdown(r, op.pkg, 2)
	return op
}

// writeRepoTemplates writes ci.yaml and the templates.
func writeRepoTemplates(opDir string, o RepoOptions, pkg string, names []string, bundles []declcfg.Bundle) error {
	var ci strings.Builder
	ci.WriteString("---\nfbc:\n  enabled: true\n  catalog_mapping:\n")
	var tmpl strings.Builder
	tmpl.WriteString("---\nschema: olm.template.basic\nentries:\n")
	fmt.Fprintf(&tmpl, "- schema: olm.package\n  name: %s\n  defaultChannel: stable\n", pkg)
	for _, ch := range []string{"stable", "fast"} {
		fmt.Fprintf(&tmpl, "- schema: olm.channel\n  name: %s\n  package: %s\n  entries:\n", ch, pkg)
		n := len(names)
		if ch == "fast" {
			n--
		}
		for i := 0; i < n; i++ {
			fmt.Fprintf(&tmpl, "  - name: %s\n", names[i])
			if i > 0 {
				fmt.Fprintf(&tmpl, "    replaces: %s\n", names[i-1])
			}
		}
	}
	for _, b := range bundles {
		fmt.Fprintf(&tmpl, "- schema: olm.bundle\n  image: %s\n", b.Image)
	}
	if err := os.MkdirAll(filepath.Join(opDir, "catalog-templates"), 0o755); err != nil {
		return err
	}
	for t := 0; t < o.Templates; t++ {
		v := fmt.Sprintf("v4.%d", 12+t)
		fmt.Fprintf(&ci, "    - template_name: %s.yaml\n      type: olm.template.basic\n      catalog_names: [%s]\n", v, v)
		if err := os.WriteFile(filepath.Join(opDir, "catalog-templates", v+".yaml"), []byte(tmpl.String()), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(opDir, "ci.yaml"), []byte(ci.String()), 0o644)
}

// writeNextBundle writes the bundle directory of the next version, with a
// release-config.yaml that releases it into stable in every template.
func writeNextBundle(r *rand.Rand, op *operator, dir string, o RepoOptions, replaces string) error {
	version := o.NextVersion()
	name := fmt.Sprintf("%s.v%s", op.pkg, version)
	manifests := []any{op.csv(r, name, version, replaces, op.csvMetadata(r, version), nil)}
	for _, k := range op.kinds {
		manifests = append(manifests, k.crd())
	}
	for _, sub := range []string{"manifests", "metadata"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	for i, m := range manifests {
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "manifests", fmt.Sprintf("%02d.yaml", i)), data, 0o644); err != nil {
			return err
		}
	}
	annotations := fmt.Sprintf("annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n"+
		"  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n"+
		"  operators.operatorframework.io.bundle.package.v1: %s\n  operators.operatorframework.io.bundle.channels.v1: stable\n", op.pkg)
	if err := os.WriteFile(filepath.Join(dir, "metadata", "annotations.yaml"), []byte(annotations), 0o644); err != nil {
		return err
	}
	var rc strings.Builder
	rc.WriteString("---\ncatalog_templates:\n")
	for t := 0; t < o.Templates; t++ {
		fmt.Fprintf(&rc, "  - template_name: v4.%d.yaml\n    channels: [stable]\n    replaces: %s\n", 12+t, replaces)
	}
	return os.WriteFile(filepath.Join(dir, "release-config.yaml"), []byte(rc.String()), 0o644)
}
