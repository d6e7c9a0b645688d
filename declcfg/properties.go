package declcfg

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"unicode"

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
	err := json.Unmarshal(raw, &v)
	return v, err
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
