package catalogrepotest

import (
	"fmt"

	"github.com/fbcat/opm/encoding/value"
)

// crdVersion is the source's k-th CRD (of n) as the i-th version: the
// description of each schema names the version (a safe change, made in
// every version, as generated CRDs change); version j adds a field
// benchJ to the spec of CRD j mod n; a field added by a version j with j
// mod 10 = 3 is removed five versions later (an unsafe change).
func crdVersion(src *value.Value, k, n, i int) *value.Value {
	v := clone(src)
	for _, schema := range crdSchemas(v) {
		if d := schema.At("description"); d != nil && d.Kind == value.String {
			set(schema, "description", str(fmt.Sprintf("%s (version %s)", d.Str, LintRepoVersion(i))))
		} else {
			set(schema, "description", str("Version "+LintRepoVersion(i)))
		}
		props := schema.At("properties", "spec", "properties")
		if props == nil || props.Kind != value.Object {
			props = schema.At("properties")
		}
		if props == nil || props.Kind != value.Object {
			continue
		}
		for j := k; j <= i; j += n {
			if j%10 == 3 && i >= j+5 {
				continue
			}
			set(props, fmt.Sprintf("bench%d", j), value.Value{Kind: value.Object, Fields: []value.Field{
				{Key: "description", Value: str(fmt.Sprintf("Bench%d is a setting version %s added.", j, LintRepoVersion(j)))},
				{Key: "type", Value: str("string")},
			}})
		}
	}
	return v
}

// crdSchemas lists a CRD's openAPIV3Schema objects: each version's, or
// v1beta1's one for every version.
func crdSchemas(v *value.Value) []*value.Value {
	var out []*value.Value
	if vs := v.At("spec", "versions"); vs != nil && vs.Kind == value.Array {
		for i := range vs.Items {
			if s := vs.Items[i].At("schema", "openAPIV3Schema"); s != nil && s.Kind == value.Object {
				out = append(out, s)
			}
		}
	}
	if s := v.At("spec", "validation", "openAPIV3Schema"); s != nil && s.Kind == value.Object {
		out = append(out, s)
	}
	return out
}
