package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/crdcompat"
)

// withOneOf is oldSpec with a tls field whose oneOf holds the given
// schemas (each a YAML flow mapping).
func withOneOf(schemas ...string) string {
	spec := oldSpec + "              tls:\n                type: object\n"
	if len(schemas) > 0 {
		spec += "                oneOf:\n"
		for _, s := range schemas {
			spec += "                - " + s + "\n"
		}
	}
	return spec + "                properties:\n                  mode:\n                    type: string\n                  redirect:\n                    type: boolean\n"
}

// oneOf lists are compared as sets of schemas, as the preflight does:
// any schema added or removed is refused, and so is a oneOf where there
// was none. The real case: authorino-operator 0.5.0 -> 0.6.0 adds
// schemas to an existing oneOf, which operator-controller refuses
// ("allowed oneOf schemas added"). crdify also walks each oneOf schema
// as a field of its own (spec.tls.oneOf[0], by index: FlattenCRDVersion
// in pkg/validations/util.go) and compares it with the one at its index,
// so schemas reordered are refused by its other rules (here: required).
func TestCRDUpgradeOneOf(t *testing.T) {
	mode, redirect := "{required: [mode]}", "{required: [redirect]}"
	tests := []struct {
		name     string
		old, new string
		want     []string
		kind     string // of every reason, OneOfChanged if ""
	}{
		{name: "same", old: withOneOf(mode, redirect), new: withOneOf(mode, redirect)},
		{name: "reordered", old: withOneOf(mode, redirect), new: withOneOf(redirect, mode), kind: crdcompat.RequiredAdded,
			want: []string{"field spec.tls(oneOf[0]): new required fields redirect", "field spec.tls(oneOf[1]): new required fields mode"}},
		{name: "a schema's description", old: withOneOf(mode, redirect), new: withOneOf("{required: [mode], description: TLS by mode}", redirect)},
		{name: "schema added", old: withOneOf(mode), new: withOneOf(mode, redirect),
			want: []string{"field spec.tls: allowed oneOf schemas added (oneOf[1])"}},
		{name: "schema removed", old: withOneOf(mode, redirect), new: withOneOf(redirect),
			want: []string{"field spec.tls: allowed oneOf schemas removed (old oneOf[0])"}},
		{name: "schema changed", old: withOneOf(mode, redirect), new: withOneOf("{required: [mode], minProperties: 1}", redirect),
			want: []string{"allowed oneOf schemas removed (old oneOf[0])", "allowed oneOf schemas added (oneOf[0])"}},
		{name: "oneOf added", old: withOneOf(), new: withOneOf(mode, redirect),
			want: []string{"field spec.tls: oneOf added where there was none"}},
		{name: "oneOf dropped", old: withOneOf(mode, redirect), new: withOneOf(),
			want: []string{"allowed oneOf schemas removed (old oneOf[0, 1])"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := bundleDir(t, filepath.Join(t.TempDir(), "old"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": testCRD(tt.old)})
			dir := bundleDir(t, filepath.Join(t.TempDir(), "new"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": testCRD(tt.new)})
			got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}, Previous: old}).Findings
			if len(tt.want) == 0 {
				if len(got) != 0 {
					t.Fatalf("want no finding, got:%s", dump(got))
				}
				return
			}
			if len(got) != 1 || len(got[0].Reasons) != len(tt.want) {
				t.Fatalf("want one finding with %q, got:%s", tt.want, dump(got))
			}
			file := filepath.Join(dir, "manifests", "crd.yaml")
			kind := tt.kind
			if kind == "" {
				kind = crdcompat.OneOfChanged
			}
			for i, r := range got[0].Reasons {
				if !strings.Contains(r.String(), tt.want[i]) || r.Kind != kind {
					t.Errorf("reason %+v, want %q", r, tt.want[i])
				}
				if kind == crdcompat.OneOfChanged && tt.name != "oneOf dropped" && r.Line != lineOf(t, file, "oneOf:")+1 {
					t.Errorf("reason at line %d, want the oneOf's first schema", r.Line)
				}
			}
		})
	}
}
