// Reading Kubernetes objects from manifest and metadata files.

package registryv1

import (
	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
)

// FirstObject decodes the first document of a manifest file as upstream's
// YAML-or-JSON decoder does, looking at the first sniff bytes to tell JSON
// from YAML. It reports false for anything that is not an object.
func FirstObject(data []byte, sniff int) (*value.Value, bool) { return firstObject(data, sniff) }

// StringAt follows object members and returns the string found there, ""
// for anything else.
func StringAt(v *value.Value, keys ...string) string {
	if f := lookupPath(v, keys...); f != nil && f.Kind == value.String {
		return f.Str
	}
	return ""
}

// firstObject decodes the first document of a manifest or metadata file
// the way upstream's YAML-or-JSON decoder does (sniffing only the first
// sniff bytes for a JSON object). It reports false for anything that is not
// an object.
func firstObject(data []byte, sniff int) (*value.Value, bool) {
	if value.LooksLikeJSON(data, sniff) {
		p := value.NewJSONParser(data, 1)
		if v, err := p.Next(); err == nil {
			return &v, v.Kind == value.Object
		}
	}
	docs, _ := fbcyaml.SplitDocuments(data, 1)
	if len(docs) == 0 {
		return nil, false
	}
	v, err := fbcyaml.Decode(docs[0].Data, docs[0].Line)
	if err != nil || v.Kind != value.Object {
		return nil, false
	}
	return &v, true
}

// lookupPath follows object members.
func lookupPath(v *value.Value, keys ...string) *value.Value {
	for _, k := range keys {
		if v == nil {
			return nil
		}
		next, ok := v.Get(k)
		if !ok {
			return nil
		}
		v = next
	}
	return v
}

// stringField is the string member key of v, "" for anything else.
func stringField(v *value.Value, key string) string {
	if f := lookupPath(v, key); f != nil && f.Kind == value.String {
		return f.Str
	}
	return ""
}
