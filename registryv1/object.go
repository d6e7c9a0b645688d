package registryv1

import "github.com/fbcat/opm/encoding/value"

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
