package template

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// member finds the member of object v that upstream's decoder
// (encoding/json) puts into a field called name: keys match it ignoring
// case. Two keys that both match are an error, where upstream would
// silently use one of them. A missing member is nil.
func member(v *value.Value, name string) (*value.Value, error) {
	var found *value.Field
	for i := range v.Fields {
		f := &v.Fields[i]
		if !strings.EqualFold(f.Key, name) {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("keys %q and %q differ only in upper/lower case; keep one", found.Key, f.Key)
		}
		found = f
	}
	if found == nil {
		return nil, nil
	}
	return &found.Value, nil
}

// unknownMember returns the first member of v whose key matches none of
// names (ignoring case), nil if there is none.
func unknownMember(v *value.Value, names ...string) *value.Field {
	for i := range v.Fields {
		known := false
		for _, n := range names {
			if strings.EqualFold(v.Fields[i].Key, n) {
				known = true
				break
			}
		}
		if !known {
			return &v.Fields[i]
		}
	}
	return nil
}

// stringMember reads a string member; a missing or null one is "".
func stringMember(v *value.Value, name string) (string, *value.Value, error) {
	m, err := member(v, name)
	if err != nil || m == nil || m.Kind == value.Null {
		return "", m, err
	}
	if m.Kind != value.String {
		hint := ""
		if m.Kind == value.Bool {
			hint = " (YAML reads y, n, yes, no, on and off as booleans: quote the value)"
		}
		return "", m, fmt.Errorf("%s must be a string, not %s%s", name, value.Describe(m), hint)
	}
	return m.Str, m, nil
}

// listMember reads a list member; a missing or null one is empty.
func listMember(v *value.Value, name string) ([]value.Value, *value.Value, error) {
	m, err := member(v, name)
	if err != nil || m == nil || m.Kind == value.Null {
		return nil, m, err
	}
	if m.Kind != value.Array {
		return nil, m, fmt.Errorf("%s must be a list, not %s", name, value.Describe(m))
	}
	return m.Items, m, nil
}

// header reads the schema of a template's first document.
func header(in Input) (*document, string, error) {
	doc, err := in.firstDocument()
	if err != nil {
		return nil, "", err
	}
	if doc.value.Kind != value.Object {
		return nil, "", problemAt(in.Name, int(doc.value.Line), "", "", fmt.Errorf("the template is %s, not an object with a \"schema\" field", value.Describe(&doc.value)))
	}
	schema, node, err := stringMember(&doc.value, "schema")
	if err != nil {
		line := int(doc.line)
		if node != nil {
			line = int(node.Line)
		}
		return nil, "", problemAt(in.Name, line, "", "", err)
	}
	return doc, schema, nil
}

// Detect tells a template's format from its schema field, as upstream's
// render-template does when no TYPE is given.
func Detect(in Input) (Kind, error) {
	doc, schema, err := header(in)
	if err != nil {
		return "", err
	}
	if schema == "" {
		return "", problemAt(in.Name, int(doc.line), "", "", fmt.Errorf("the template has no \"schema\" field, so its type is unknown: set schema to one of %s, or give the type as an argument", schemaList()))
	}
	k, ok := kindOfSchema(schema)
	if !ok {
		node, _ := member(&doc.value, "schema")
		return "", problemAt(in.Name, int(node.Line), "", "", fmt.Errorf("unknown template schema %q: expected one of %s", schema, schemaList()))
	}
	return k, nil
}
