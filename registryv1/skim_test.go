package registryv1

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fbcat/opm/encoding/value"
)

// skimAgrees reports why Skim's head of data differs from what
// FirstObject decodes, "" when it agrees (or gives up).
func skimAgrees(data []byte) string {
	h, ok := Skim(data, 30)
	if !ok {
		return ""
	}
	v, vok := FirstObject(data, 30)
	switch {
	case !vok:
		// A syntax error below what Skim reads: it skims what the lines
		// it reads say, and the tree is missing when asked for.
		return ""
	case h.APIVersion != v.StringAt("apiVersion"), h.Kind != v.StringAt("kind"), h.Name != v.StringAt("metadata", "name"):
		return "apiVersion, kind or name differ: " + h.APIVersion + " " + h.Kind + " " + h.Name
	case h.Line != int(v.Line):
		return "the object's line differs"
	case h.Kind != "CustomResourceDefinition":
		return ""
	}
	var names []string
	served := map[string]bool{}
	for _, it := range items(v.At("spec", "versions")) {
		names = append(names, it.StringAt("name"))
		if s := it.At("served"); s != nil && s.Kind == value.Bool && s.Bool {
			served[it.StringAt("name")] = true
		}
	}
	if !slices.Equal(h.Versions, names) || len(h.Served) != len(served) || h.Version != v.StringAt("spec", "version") {
		return "the CRD's versions differ"
	}
	// What lint/crdcompat reads of the CRD's shape.
	var stored []string
	if vs := v.At("spec", "versions"); vs != nil && vs.Kind == value.Array {
		for _, it := range vs.Items {
			if s := it.At("storage"); s != nil && s.Kind == value.Bool && s.Bool {
				stored = append(stored, it.StringAt("name"))
			}
		}
	} else if name := v.StringAt("spec", "version"); name != "" {
		stored = append(stored, name)
	}
	for _, s := range items(v.At("status", "storedVersions")) {
		if s.Kind == value.String && !slices.Contains(stored, s.Str) {
			stored = append(stored, s.Str)
		}
	}
	line := func(n *value.Value) int {
		if n == nil {
			return 0
		}
		return int(n.Line)
	}
	switch {
	case !slices.Equal(h.Stored, stored):
		return "the stored versions differ"
	case h.Scope != v.StringAt("spec", "scope"):
		return "the scope differs"
	case v.At("spec") != nil && v.At("spec").Line == v.Line:
		// go-yaml v2's tree (fbcyaml's slow path) has the document's line
		// only: Skim's lines are the nodes' own.
	case h.ScopeLine != line(v.At("spec", "scope")) || h.VersionsLine != line(v.At("spec", "versions")):
		return "the lines of spec.scope or spec.versions differ"
	}
	for n := range served {
		if !h.Served[n] {
			return "served differs"
		}
	}
	return ""
}

// items are a list's items.
func items(v *value.Value) []value.Value {
	if v == nil || v.Kind != value.Array {
		return nil
	}
	return v.Items
}

func TestSkim(t *testing.T) {
	crd := "---\n# a CRD\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    x: \"y: z\"\n  name: foos.example.com\nspec:\n  group: example.com\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        description: |\n          - name: not this\n        type: object\n    served: true\n    storage: true\n  - name: v2\n    served: false\n"
	h, ok := Skim([]byte(crd), 30)
	if !ok || h.Kind != "CustomResourceDefinition" || h.Name != "foos.example.com" || h.Line != 3 ||
		!slices.Equal(h.Versions, []string{"v1", "v2"}) || !h.Served["v1"] || h.Served["v2"] {
		t.Fatalf("got %+v, %v", h, ok)
	}
	for name, doc := range map[string]string{
		"JSON":                  `{"apiVersion": "v1", "kind": "ConfigMap"}`,
		"a name that is a bool": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yes\n",
		"a name of digits":      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 1password\n",
		"an escape":             "apiVersion: v1\nkind: \"Config\\u004dap\"\n",
		"a tab":                 "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n",
		"a repeated key":        "apiVersion: v1\nkind: ConfigMap\nkind: Secret\n",
		"a flow mapping":        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"an anchor":             "apiVersion: v1\nkind: &k ConfigMap\n",
		"a continued scalar":    "apiVersion: v1\nkind: Config\n  Map\n",
		"a sequence":            "- apiVersion: v1\n",
		"an unclosed quote":     "kind: A\n0: \"\n",
		"no kind":               "apiVersion: v1\nmetadata:\n  name: a\n",
		"deep version keys":     "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n            versions:\n            - name: v1\n              served: true\n",
		"deep metadata":         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n              name: a\n",
		"served: yes":           "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  versions:\n  - name: v1\n    served: yes\n",
	} {
		if h, ok := Skim([]byte(doc), 30); ok {
			t.Errorf("%s: skimmed %+v", name, h)
		}
		if why := skimAgrees([]byte(doc)); why != "" {
			t.Errorf("%s: %s", name, why)
		}
	}
}

// Every manifest of the test data, the conformance bundles and
// OPM_SKIM_CORPUS (directories, colon-separated: a checkout of
// community-operators-prod's operators/, say) skims as FirstObject
// decodes it or not at all, and most of the test data's skim.
func TestSkimCorpus(t *testing.T) {
	roots := []string{"../testdata/bundles", "../../shared/conformance/bundles"}
	if c := os.Getenv("OPM_SKIM_CORPUS"); c != "" {
		roots = append(roots, filepath.SplitList(c)...)
	}
	files, skimmed := 0, 0
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Base(filepath.Dir(p)) != "manifests" {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			files++
			if _, ok := Skim(data, 30); ok {
				skimmed++
			}
			if why := skimAgrees(data); why != "" {
				t.Errorf("%s: %s", p, why)
			}
			return nil
		})
	}
	t.Logf("%d of %d manifests skimmed", skimmed, files)
	if files == 0 || skimmed*10 < files*8 {
		t.Errorf("%d of %d manifests skimmed, want most", skimmed, files)
	}
}

// Whatever the input FirstObject reads, Skim says what it decodes, or
// gives up.
func FuzzSkim(f *testing.F) {
	for _, s := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.b\nspec:\n  versions:\n  - name: v1\n    served: true\n",
		"---\nkind: A\n---\nkind: B\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if why := skimAgrees(data); why != "" {
			t.Errorf("%q: %s", data, why)
		}
	})
}
