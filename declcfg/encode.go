package declcfg

import (
	"encoding/base64"
	"encoding/json"

	"github.com/fbcat/opm/internal/fbcyaml"
	"github.com/fbcat/opm/internal/value"
)

// jsonWriter builds indented JSON with the layout of encoding/json's
// Encoder with four-space indentation.
type jsonWriter struct {
	b     []byte
	depth int
	empty []bool // per open bracket: nothing written in it yet
}

func (w *jsonWriter) open(c byte) {
	w.b = append(w.b, c)
	w.empty = append(w.empty, true)
	w.depth++
}

func (w *jsonWriter) close(c byte) {
	w.depth--
	n := len(w.empty) - 1
	if !w.empty[n] {
		w.b = value.Newline(w.b, w.depth)
	}
	w.empty = w.empty[:n]
	w.b = append(w.b, c)
}

// next starts a member or element.
func (w *jsonWriter) next() {
	n := len(w.empty) - 1
	if !w.empty[n] {
		w.b = append(w.b, ',')
	}
	w.empty[n] = false
	w.b = value.Newline(w.b, w.depth)
}

func (w *jsonWriter) key(k string) {
	w.next()
	w.b = value.AppendString(w.b, k)
	w.b = append(w.b, ':', ' ')
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.b = value.AppendString(w.b, v)
}

func (w *jsonWriter) raw(k string, raw json.RawMessage) {
	w.key(k)
	if len(raw) == 0 {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = value.AppendIndentedRaw(w.b, raw, w.depth)
}

func (w *jsonWriter) properties(props []Property) {
	if len(props) == 0 {
		return
	}
	w.key("properties")
	w.open('[')
	for _, p := range props {
		w.next()
		w.open('{')
		w.str("type", p.Type)
		w.raw("value", p.Value)
		w.close('}')
	}
	w.close(']')
}

// AppendJSON appends p as upstream writes it with -o json, with a final
// newline.
func (p *Package) AppendJSON(b []byte) []byte {
	w := jsonWriter{b: b}
	w.open('{')
	w.str("schema", p.Schema)
	w.str("name", p.Name)
	w.str("defaultChannel", p.DefaultChannel)
	if p.Icon != nil {
		w.key("icon")
		w.open('{')
		w.key("base64data")
		if p.Icon.Data == nil {
			w.b = append(w.b, "null"...)
		} else {
			w.b = append(w.b, '"')
			w.b = base64.StdEncoding.AppendEncode(w.b, p.Icon.Data)
			w.b = append(w.b, '"')
		}
		w.str("mediatype", p.Icon.MediaType)
		w.close('}')
	}
	if p.Description != "" {
		w.str("description", p.Description)
	}
	w.properties(p.Properties)
	w.close('}')
	return append(w.b, '\n')
}

// AppendJSON appends c as upstream writes it with -o json.
func (c *Channel) AppendJSON(b []byte) []byte {
	w := jsonWriter{b: b}
	w.open('{')
	w.str("schema", c.Schema)
	w.str("name", c.Name)
	w.str("package", c.Package)
	w.key("entries")
	if c.Entries == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.open('[')
		for _, e := range c.Entries {
			w.next()
			w.open('{')
			w.str("name", e.Name)
			if e.Replaces != "" {
				w.str("replaces", e.Replaces)
			}
			if len(e.Skips) > 0 {
				w.key("skips")
				w.open('[')
				for _, s := range e.Skips {
					w.next()
					w.b = value.AppendString(w.b, s)
				}
				w.close(']')
			}
			if e.SkipRange != "" {
				w.str("skipRange", e.SkipRange)
			}
			w.close('}')
		}
		w.close(']')
	}
	w.properties(c.Properties)
	w.close('}')
	return append(w.b, '\n')
}

// AppendJSON appends b as upstream writes it with -o json.
func (b *Bundle) AppendJSON(dst []byte) []byte {
	w := jsonWriter{b: dst}
	w.open('{')
	w.str("schema", b.Schema)
	if b.Name != "" {
		w.str("name", b.Name)
	}
	if b.Package != "" {
		w.str("package", b.Package)
	}
	w.str("image", b.Image)
	w.properties(b.Properties)
	if len(b.RelatedImages) > 0 {
		w.key("relatedImages")
		w.open('[')
		for _, r := range b.RelatedImages {
			w.next()
			w.open('{')
			w.str("name", r.Name)
			w.str("image", r.Image)
			w.close('}')
		}
		w.close(']')
	}
	w.close('}')
	return append(w.b, '\n')
}

// AppendJSON appends d as upstream writes it with -o json.
func (d *Deprecation) AppendJSON(b []byte) []byte {
	w := jsonWriter{b: b}
	w.open('{')
	w.str("schema", d.Schema)
	w.str("package", d.Package)
	w.key("entries")
	if d.Entries == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.open('[')
		for _, e := range d.Entries {
			w.next()
			w.open('{')
			w.key("reference")
			w.open('{')
			w.str("schema", e.Reference.Schema)
			if e.Reference.Name != "" {
				w.str("name", e.Reference.Name)
			}
			w.close('}')
			w.str("message", e.Message)
			w.close('}')
		}
		w.close(']')
	}
	w.close('}')
	return append(w.b, '\n')
}

// AppendJSON appends m as upstream writes it with -o json.
func (m *Meta) AppendJSON(b []byte) []byte {
	if len(m.Blob) == 0 {
		return append(b, "null\n"...)
	}
	b = value.AppendIndentedRaw(b, m.Blob, 0)
	return append(b, '\n')
}

// The YAML form is the JSON form read back as a tree and written by the
// go-yaml-compatible emitter, as upstream does through JSONToYAML.

func strv(s string) value.Value { return value.Value{Kind: value.String, Str: s} }

func rawValue(raw json.RawMessage) (value.Value, error) {
	if len(raw) == 0 {
		return value.Value{Kind: value.Null}, nil
	}
	return value.ParseJSON(raw)
}

func propertiesValue(props []Property) (value.Value, error) {
	items := make([]value.Value, len(props))
	for i, p := range props {
		v, err := rawValue(p.Value)
		if err != nil {
			return value.Value{}, err
		}
		items[i] = object(value.Field{Key: "type", Value: strv(p.Type)}, value.Field{Key: "value", Value: v})
	}
	return value.Value{Kind: value.Array, Items: items}, nil
}

func object(fields ...value.Field) value.Value {
	return value.Value{Kind: value.Object, Fields: fields}
}

func field(k string, v value.Value) value.Field { return value.Field{Key: k, Value: v} }

func appendYAML(b []byte, v value.Value) []byte {
	b = append(b, "---\n"...)
	return fbcyaml.AppendDocument(b, &v)
}

// AppendYAML appends p as upstream writes it with -o yaml, "---" included.
func (p *Package) AppendYAML(b []byte) ([]byte, error) {
	v := object(field("schema", strv(p.Schema)), field("name", strv(p.Name)), field("defaultChannel", strv(p.DefaultChannel)))
	if p.Icon != nil {
		data := value.Value{Kind: value.Null}
		if p.Icon.Data != nil {
			data = strv(base64.StdEncoding.EncodeToString(p.Icon.Data))
		}
		v.Fields = append(v.Fields, field("icon", object(field("base64data", data), field("mediatype", strv(p.Icon.MediaType)))))
	}
	if p.Description != "" {
		v.Fields = append(v.Fields, field("description", strv(p.Description)))
	}
	if len(p.Properties) > 0 {
		props, err := propertiesValue(p.Properties)
		if err != nil {
			return b, err
		}
		v.Fields = append(v.Fields, field("properties", props))
	}
	return appendYAML(b, v), nil
}

// AppendYAML appends c as upstream writes it with -o yaml.
func (c *Channel) AppendYAML(b []byte) ([]byte, error) {
	v := object(field("schema", strv(c.Schema)), field("name", strv(c.Name)), field("package", strv(c.Package)))
	entries := value.Value{Kind: value.Null}
	if c.Entries != nil {
		entries = value.Value{Kind: value.Array, Items: make([]value.Value, 0, len(c.Entries))}
		for _, e := range c.Entries {
			ev := object(field("name", strv(e.Name)))
			if e.Replaces != "" {
				ev.Fields = append(ev.Fields, field("replaces", strv(e.Replaces)))
			}
			if len(e.Skips) > 0 {
				skips := value.Value{Kind: value.Array}
				for _, s := range e.Skips {
					skips.Items = append(skips.Items, strv(s))
				}
				ev.Fields = append(ev.Fields, field("skips", skips))
			}
			if e.SkipRange != "" {
				ev.Fields = append(ev.Fields, field("skipRange", strv(e.SkipRange)))
			}
			entries.Items = append(entries.Items, ev)
		}
	}
	v.Fields = append(v.Fields, field("entries", entries))
	if len(c.Properties) > 0 {
		props, err := propertiesValue(c.Properties)
		if err != nil {
			return b, err
		}
		v.Fields = append(v.Fields, field("properties", props))
	}
	return appendYAML(b, v), nil
}

// AppendYAML appends bd as upstream writes it with -o yaml.
func (bd *Bundle) AppendYAML(b []byte) ([]byte, error) {
	v := object(field("schema", strv(bd.Schema)))
	if bd.Name != "" {
		v.Fields = append(v.Fields, field("name", strv(bd.Name)))
	}
	if bd.Package != "" {
		v.Fields = append(v.Fields, field("package", strv(bd.Package)))
	}
	v.Fields = append(v.Fields, field("image", strv(bd.Image)))
	if len(bd.Properties) > 0 {
		props, err := propertiesValue(bd.Properties)
		if err != nil {
			return b, err
		}
		v.Fields = append(v.Fields, field("properties", props))
	}
	if len(bd.RelatedImages) > 0 {
		ri := value.Value{Kind: value.Array}
		for _, r := range bd.RelatedImages {
			ri.Items = append(ri.Items, object(field("name", strv(r.Name)), field("image", strv(r.Image))))
		}
		v.Fields = append(v.Fields, field("relatedImages", ri))
	}
	return appendYAML(b, v), nil
}

// AppendYAML appends d as upstream writes it with -o yaml.
func (d *Deprecation) AppendYAML(b []byte) ([]byte, error) {
	v := object(field("schema", strv(d.Schema)), field("package", strv(d.Package)))
	entries := value.Value{Kind: value.Null}
	if d.Entries != nil {
		entries = value.Value{Kind: value.Array, Items: make([]value.Value, 0, len(d.Entries))}
		for _, e := range d.Entries {
			ref := object(field("schema", strv(e.Reference.Schema)))
			if e.Reference.Name != "" {
				ref.Fields = append(ref.Fields, field("name", strv(e.Reference.Name)))
			}
			entries.Items = append(entries.Items, object(field("reference", ref), field("message", strv(e.Message))))
		}
	}
	v.Fields = append(v.Fields, field("entries", entries))
	return appendYAML(b, v), nil
}

// AppendYAML appends m as upstream writes it with -o yaml.
func (m *Meta) AppendYAML(b []byte) ([]byte, error) {
	v, err := rawValue(m.Blob)
	if err != nil {
		return b, err
	}
	return appendYAML(b, v), nil
}
