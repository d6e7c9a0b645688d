package crdcompat

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/value"
)

// crdJSON is a CRD of one version, v1, stored and served, with the given
// spec properties (JSON members) and scope; one member per line, so that
// lines can be checked.
func crdJSON(scope, props string) string {
	return `{
"apiVersion": "apiextensions.k8s.io/v1",
"kind": "CustomResourceDefinition",
"metadata": {"name": "foos.example.com"},
"spec": {
"scope": "` + scope + `",
"versions": [{
"name": "v1", "served": true, "storage": true,
"schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {
` + props + `
}}}}}
}]
}
}`
}

func readCRD(t *testing.T, s string) *CRD {
	t.Helper()
	v, err := value.ParseJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return Read(&v)
}

func TestCompare(t *testing.T) {
	base := `"size": {"type": "integer", "maximum": 7},
"mode": {"type": "string", "enum": ["a", "b"]}`
	tests := []struct {
		name       string
		scope, new string
		want       []Change
	}{
		{name: "same", scope: "Namespaced", new: base},
		{name: "description added", scope: "Namespaced", new: strings.Replace(base, `"type": "integer",`, `"type": "integer", "description": "how many",`, 1)},
		{name: "field removed", scope: "Namespaced", new: `"mode": {"type": "string", "enum": ["a", "b"]}`,
			want: []Change{{Kind: FieldRemoved, Version: "v1", Field: "spec.size", Line: 9, Message: "field removed: existing objects that set it no longer validate; deprecate it instead of removing it"}}},
		{name: "enum value removed", scope: "Namespaced", new: strings.Replace(base, `["a", "b"]`, `["a"]`, 1),
			want: []Change{{Kind: EnumRemoved, Version: "v1", Field: "spec.mode", Line: 11, Message: `enum values "b" removed: existing objects that use them no longer validate`}}},
		{name: "scope changed", scope: "Cluster", new: base,
			want: []Change{{Kind: ScopeChanged, Line: 6, Message: "scope changed from Namespaced to Cluster"}}},
	}
	old := readCRD(t, crdJSON("Namespaced", base))
	for _, tt := range tests {
		got := Compare(old, readCRD(t, crdJSON(tt.scope, tt.new)))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %#v\nwant %#v", tt.name, got, tt.want)
		}
	}
}

func TestChangeString(t *testing.T) {
	c := Change{Kind: FieldRemoved, Version: "v1", Field: "spec.a", Message: "field removed"}
	if c.String() != "version v1, field spec.a: field removed" || c.Place() != "version v1, field spec.a" {
		t.Errorf("%q %q", c.String(), c.Place())
	}
	if c := (Change{Kind: ScopeChanged, Message: "scope changed"}); c.String() != "scope changed" || c.Place() != "" {
		t.Errorf("%q %q", c.String(), c.Place())
	}
}

// Served versions are compared in apimachinery's order
// (CompareKubeAwareVersionStrings, which crdify's served version
// validator sorts by): a name whose numbers do not fit an int is no
// version.
func TestCompareKubeVersions(t *testing.T) {
	got := []string{"v2", "v1", "v1beta2", "foo", "v1alpha1", "v1beta1", "bar", "v10alpha1", "v99999999999999999999", "v1beta99999999999999999999"}
	slices.SortStableFunc(got, compareKubeVersions)
	want := []string{"v99999999999999999999", "v1beta99999999999999999999", "foo", "bar", "v1alpha1", "v10alpha1", "v1beta1", "v1beta2", "v1", "v2"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// A pair is compared once; Seed starts a Pairs with the pairs another
// compared, which it then does not compare again (here it could not:
// there are no CRDs to read).
func TestPairs(t *testing.T) {
	old, cur := Sum{1}, Sum{2}
	want := []Change{{Kind: ScopeChanged, Message: "scope changed"}}
	var head Pairs
	reads := 0
	read := func() (*CRD, *CRD) {
		reads++
		return &CRD{scope: "Namespaced"}, &CRD{scope: "Cluster", root: &value.Value{}}
	}
	for range 2 {
		if got := head.Changes(old, cur, read); len(got) != 1 || got[0].Kind != ScopeChanged {
			t.Fatalf("changes %+v", got)
		}
	}
	if reads != 1 || head.Len() != 1 {
		t.Fatalf("read %d times, %d pairs", reads, head.Len())
	}
	var base Pairs
	base.Seed(&head)
	got := base.Changes(old, cur, func() (*CRD, *CRD) { t.Fatal("compared again"); return nil, nil })
	if got[0].Kind != want[0].Kind {
		t.Fatalf("changes %v, want %v", got, want)
	}
}
