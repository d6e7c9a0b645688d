package declcfg

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
)

// PackageProperty is the value of an olm.package property.
type PackageProperty struct {
	PackageName string `json:"packageName"`
	Version     string `json:"version"`
	Release     string `json:"release,omitempty"`
}

// PackageRequiredProperty is the value of an olm.package.required property.
type PackageRequiredProperty struct {
	PackageName  string `json:"packageName"`
	VersionRange string `json:"versionRange"`
}

// GVKProperty is the value of an olm.gvk or olm.gvk.required property.
type GVKProperty struct {
	Group   string `json:"group"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
}

// ParsePropertyValue decodes a property value with encoding/json's rules
// (fields matched ignoring case, unknown fields ignored).
func ParsePropertyValue[T any](raw json.RawMessage) (T, error) {
	var v T
	if len(raw) == 0 {
		return v, nil
	}
	// The values of the properties every bundle has (tens of thousands of
	// olm.gvk in a real catalog) are compact objects of plain strings,
	// which are read without reflection; anything else, as encoding/json
	// reads it.
	switch p := any(&v).(type) {
	case *GVKProperty:
		if plainStringFields(raw, gvkFields, &p.Group, &p.Kind, &p.Version) {
			return v, nil
		}
	case *PackageProperty:
		if plainStringFields(raw, packageFields, &p.PackageName, &p.Version, &p.Release) {
			return v, nil
		}
	case *PackageRequiredProperty:
		if plainStringFields(raw, packageRequiredFields, &p.PackageName, &p.VersionRange) {
			return v, nil
		}
	}
	err := json.Unmarshal(raw, &v)
	return v, err
}

// The JSON names of the fields of GVKProperty, PackageProperty and
// PackageRequiredProperty, in the order plainStringFields is given them.
var (
	gvkFields             = []string{"group", "kind", "version"}
	packageFields         = []string{"packageName", "version", "release"}
	packageRequiredFields = []string{"packageName", "versionRange"}
)

// plainStringFields reads raw into dst when encoding/json would read it
// so trivially that its result is certain: a compact object (no white
// space) whose keys are among names, spelled exactly so and each at most
// once, and whose values are strings without escapes, of valid UTF-8
// without control characters. The string of names[i] goes to dst[i]. It
// reports false, and may have written to dst, for anything else.
func plainStringFields(raw []byte, names []string, dst ...*string) bool {
	if len(raw) < 2 || raw[0] != '{' || raw[len(raw)-1] != '}' {
		return false
	}
	rest, seen := raw[1:len(raw)-1], 0
	for len(rest) > 0 {
		key, after, ok := plainJSONString(rest)
		if !ok || len(after) == 0 || after[0] != ':' {
			return false
		}
		i := 0
		for i < len(names) && names[i] != string(key) {
			i++
		}
		if i == len(names) || seen&(1<<i) != 0 {
			return false
		}
		seen |= 1 << i
		val, after, ok := plainJSONString(after[1:])
		if !ok {
			return false
		}
		*dst[i] = string(val)
		switch {
		case len(after) == 0:
			rest = after
		case after[0] == ',' && len(after) > 1:
			rest = after[1:]
		default:
			return false
		}
	}
	return true
}

// plainJSONString reads the string at the start of s, if it has no
// escapes and is valid UTF-8 without control characters: its text and
// what follows it.
func plainJSONString(s []byte) (text, rest []byte, ok bool) {
	if len(s) < 2 || s[0] != '"' {
		return nil, nil, false
	}
	end := bytes.IndexByte(s[1:], '"') + 1
	if end == 0 {
		return nil, nil, false
	}
	text = s[1:end]
	for _, b := range text {
		if b < 0x20 || b == '\\' {
			return nil, nil, false
		}
	}
	return text, s[end+1:], utf8.Valid(text)
}

// BundleObjectData returns the JSON of the Kubernetes object an
// olm.bundle.object property carries.
func BundleObjectData(raw json.RawMessage) ([]byte, error) {
	// The usual value is decoded directly: encoding/json scans the
	// (large) string once more.
	if s, ok := plainBundleObjectData(raw); ok {
		out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
		n, err := base64.StdEncoding.Decode(out, s)
		if err != nil {
			return nil, err
		}
		return toJSON(out[:n])
	}
	var obj struct {
		Data []byte `json:"data"`
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, err
		}
	}
	return toJSON(obj.Data)
}

// plainBundleObjectData returns the data of an olm.bundle.object value
// in its usual form, compact {"data":"BASE64"} without escapes (nothing
// else to decode).
func plainBundleObjectData(raw []byte) ([]byte, bool) {
	s, ok := bytes.CutPrefix(raw, []byte(`{"data":"`))
	if !ok {
		return nil, false
	}
	if s, ok = bytes.CutSuffix(s, []byte(`"}`)); !ok || bytes.ContainsAny(s, `"\\`) {
		return nil, false
	}
	return s, true
}

// objectBufs are scratch buffers for checkBundleObjectData.
var objectBufs = sync.Pool{New: func() any { return new([]byte) }}

// checkBundleObjectData checks that the data of an olm.bundle.object
// property is base64 of a JSON or YAML document, as BundleObjectData
// will need it to be. The data is decoded into a reused buffer: loading
// only checks it, and it is most of a catalog's bytes.
func checkBundleObjectData(data []byte) error {
	bp := objectBufs.Get().(*[]byte)
	defer objectBufs.Put(bp)
	if n := base64.StdEncoding.DecodedLen(len(data)); cap(*bp) < n {
		*bp = make([]byte, n)
	}
	n, err := base64.StdEncoding.Decode((*bp)[:cap(*bp)], data)
	if err != nil {
		return fmt.Errorf("not valid base64: %w", err)
	}
	_, err = toJSON((*bp)[:n])
	return err
}

// toJSON passes JSON through and converts YAML, like upstream's yaml.ToJSON.
func toJSON(data []byte) ([]byte, error) {
	if t := bytes.TrimLeftFunc(data, unicode.IsSpace); len(t) > 0 && t[0] == '{' {
		return data, nil
	}
	v, err := fbcyaml.Decode(data, 1)
	if err != nil {
		return nil, fmt.Errorf("not a JSON or YAML document: %w", err)
	}
	return value.Compact(&v), nil
}

// Objects returns the Kubernetes objects of the bundle's
// olm.bundle.object properties, in order, as JSON (objects stored as YAML
// are converted, as upstream does).
func (b *Bundle) Objects() ([][]byte, error) {
	var out [][]byte
	for i, p := range b.Properties {
		if p.Type != PropertyBundleObject {
			continue
		}
		data, err := BundleObjectData(p.Value)
		if err != nil {
			return nil, fmt.Errorf("properties[%d] (%s): %w", i, PropertyBundleObject, err)
		}
		out = append(out, data)
	}
	return out, nil
}

// CSVIndex returns the index of the first ClusterServiceVersion among
// objects (JSON), -1 if there is none.
func CSVIndex(objects [][]byte) int {
	for i, o := range objects {
		var head struct {
			Kind any `json:"kind"`
		}
		if json.Unmarshal(o, &head) == nil && head.Kind == "ClusterServiceVersion" {
			return i
		}
	}
	return -1
}
