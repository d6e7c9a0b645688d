package declcfg

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"unicode"

	"github.com/fbcat/opm/internal/fbcyaml"
	"github.com/fbcat/opm/internal/value"
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

func decodeBundleObjectData(data string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, fmt.Errorf("not valid base64: %w", err)
	}
	return toJSON(raw)
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
	return value.AppendCompact(nil, &v), nil
}
