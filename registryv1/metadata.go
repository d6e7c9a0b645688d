// Reading metadata/: the annotations, dependencies and properties files.

package registryv1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/internal/labels"
)

// addMetadata finds the annotations, dependencies and properties files:
// the first file (in name order) holding each, whatever its name.
func (b *Bundle) addMetadata(fsys fs.FS) error {
	entries, err := fs.ReadDir(fsys, "metadata")
	if err != nil {
		return &Error{File: "metadata", Err: fmt.Errorf("cannot read the metadata directory: %w", fserr.Cause(err))}
	}
	var annotations *value.Value
	var deps, props []declcfg.Property
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := path.Join("metadata", e.Name())
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return &Error{File: name, Err: fmt.Errorf("cannot read: %w", fserr.Cause(err))}
		}
		json := value.LooksLikeJSON(data, 30)
		obj, ok := firstObject(data, 30)
		if !ok {
			continue
		}
		if annotations == nil {
			if a := obj.At("annotations"); a != nil && a.Kind == value.Object && hasBundleAnnotation(a) {
				annotations = a
			}
		}
		if deps == nil {
			if deps = readPropertyList(data, obj, "dependencies", json); deps != nil {
				b.dependenciesFile = path.Join("metadata", e.Name())
			}
		}
		if props == nil {
			if props = readPropertyList(data, obj, "properties", json); props != nil {
				b.propertiesFile = path.Join("metadata", e.Name())
			}
		}
	}
	if annotations == nil {
		return &Error{File: "metadata", Err: fmt.Errorf("%w: metadata/ needs a file with an annotations map naming the package (%s)", ErrNoAnnotations, labels.Package)}
	}
	b.Package = annotationString(annotations, labels.Package)
	if ch := annotationString(annotations, labels.Channels); ch != "" {
		b.Channels = strings.Split(ch, ",")
	}
	b.DefaultChannel = annotationString(annotations, labels.DefaultChannel)
	b.dependencies = deps
	b.properties = props
	b.nFileProperties = len(props)
	return nil
}

// hasBundleAnnotation reports whether an annotations map sets one of the
// fields upstream's annotations type has.
func hasBundleAnnotation(a *value.Value) bool {
	for _, k := range []string{labels.Package, labels.Channels, labels.DefaultChannel} {
		if annotationString(a, k) != "" {
			return true
		}
	}
	return false
}

// annotationString reads an annotation into a string as upstream's typed
// decoding does: numbers and booleans become their text (see value.Text).
func annotationString(a *value.Value, key string) string {
	s, _ := value.Text(a.At(key))
	return s
}

// readPropertyList reads a list of {type, value} entries. Values keep the
// text upstream keeps: for JSON files, the bytes as written; for YAML
// files, compact JSON with sorted keys and HTML characters escaped.
func readPropertyList(data []byte, obj *value.Value, key string, isJSON bool) []declcfg.Property {
	list := obj.At(key)
	if list == nil || list.Kind != value.Array || len(list.Items) == 0 {
		return nil
	}
	var raw []json.RawMessage
	if isJSON {
		var file map[string]json.RawMessage
		if json.Unmarshal(firstJSONValue(data), &file) != nil || json.Unmarshal(file[key], &raw) != nil {
			return nil
		}
	}
	out := make([]declcfg.Property, 0, len(list.Items))
	for i := range list.Items {
		item := &list.Items[i]
		t := item.StringAt("type")
		var val json.RawMessage
		if isJSON {
			var entry struct {
				Value json.RawMessage `json:"value"`
			}
			if json.Unmarshal(raw[i], &entry) != nil {
				return nil
			}
			val = entry.Value
		} else if v := item.At("value"); v != nil {
			val = value.AppendKubernetesJSON(nil, v)
		}
		out = append(out, declcfg.Property{Type: t, Value: val})
	}
	return out
}

// firstJSONValue returns the bytes of the first JSON value in data.
func firstJSONValue(data []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil {
		return nil
	}
	return raw
}
