// Reading metadata/: the annotations, dependencies and properties files.

package registryv1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/position"
)

// Annotations is a bundle's annotations file: its path from the bundle
// root (metadata/annotations.yaml) and its annotations, each with its
// line.
type Annotations struct {
	File   string
	Values map[string]*value.Value
}

// annotationsOf is the annotations of the metadata file at file whose
// first object is obj, when they make it the annotations file: an
// annotations map that sets one of the fields upstream's annotations
// type has (the package, channels or default channel). Nil otherwise.
func annotationsOf(file string, obj *value.Value) *Annotations {
	a := obj.At("annotations")
	if a == nil || a.Kind != value.Object {
		return nil
	}
	out := &Annotations{File: file, Values: make(map[string]*value.Value, len(a.Fields))}
	for i := range a.Fields {
		out.Values[a.Fields[i].Key] = &a.Fields[i].Value
	}
	for _, k := range []string{labels.Package, labels.Channels, labels.DefaultChannel} {
		if s, _, _ := out.Get(k); s != "" {
			return out
		}
	}
	return nil
}

// Get returns an annotation as text and its line; ok is false when it is
// not set (a may be nil). A number or boolean reads as upstream's typed
// decoding reads it into a string (value.Text): a YAML float in the
// 32-bit format of sigs.k8s.io/yaml, 4.123456789 as "4.123457".
func (a *Annotations) Get(key string) (s string, line int, ok bool) {
	if a == nil {
		return "", 0, false
	}
	v := a.Values[key]
	if v == nil {
		return "", 0, false
	}
	s, _ = value.Text(v)
	return s, int(v.Line), true
}

// addMetadata takes the package and channels of the annotations file,
// and the dependencies and properties files' lists.
func (b *Bundle) addMetadata(f *Files) error {
	a := f.Annotations
	if a == nil {
		return &position.Error{File: "metadata", Err: fmt.Errorf("%w: metadata/ needs a file with an annotations map naming the package (%s)", ErrNoAnnotations, labels.Package)}
	}
	b.Package, _, _ = a.Get(labels.Package)
	if ch, _, _ := a.Get(labels.Channels); ch != "" {
		b.Channels = strings.Split(ch, ",")
	}
	b.DefaultChannel, _, _ = a.Get(labels.DefaultChannel)
	b.dependencies, b.fileProperties = f.dependencies, f.properties
	b.properties = slices.Clip(f.properties.list)
	return nil
}

// read reads the list under key (its field's name: dependencies or
// properties) of a metadata file, when it is a non-empty list of {type,
// value} entries. Values keep the text upstream keeps: for JSON files,
// the bytes as written; for YAML files, compact JSON with sorted keys and
// HTML characters escaped.
func (l *propertyList) read(data []byte, obj *value.Value, file, key string, isJSON bool) {
	list := obj.At(key)
	if list == nil || list.Kind != value.Array || len(list.Items) == 0 {
		return
	}
	var raw []json.RawMessage
	if isJSON {
		var fields map[string]json.RawMessage
		if json.Unmarshal(firstJSONValue(data), &fields) != nil || json.Unmarshal(fields[key], &raw) != nil {
			return
		}
	}
	out := make([]declcfg.Property, 0, len(list.Items))
	lines := make([]int, 0, len(list.Items))
	for i := range list.Items {
		item := &list.Items[i]
		var val json.RawMessage
		if isJSON {
			var entry struct {
				Value json.RawMessage `json:"value"`
			}
			if json.Unmarshal(raw[i], &entry) != nil {
				return
			}
			val = entry.Value
		} else if v := item.At("value"); v != nil {
			val = value.AppendKubernetesJSON(nil, v)
		}
		out = append(out, declcfg.Property{Type: item.StringAt("type"), Value: val})
		lines = append(lines, int(item.Line))
	}
	l.file, l.list, l.lines = file, out, lines
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
