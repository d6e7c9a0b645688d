package declcfg

import (
	"encoding/base64"
	"encoding/json"
	"sync"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
)

// Each catalog type is described once, by its writeJSON method: its
// members in upstream's order and when each is left out (the order and
// omitempty rules of upstream's struct tags). The JSON writer follows the
// description with encoding/json's indented layout; the YAML writer
// follows it compactly and hands the JSON to the YAML emitter, which is
// what upstream does (json.Marshal, then sigs.k8s.io/yaml.JSONToYAML).

// jsonWriter appends JSON: with the layout of encoding/json's Encoder with
// four-space indentation, or compact.
type jsonWriter struct {
	b       []byte
	compact bool
	depth   int
	written uint64 // bit d: something was written at depth d
}

func (w *jsonWriter) newline() {
	if !w.compact {
		w.b = value.Newline(w.b, w.depth)
	}
}

// open starts an object or list. Catalog types nest a few levels deep;
// property values, however deep, are written by rawValue.
func (w *jsonWriter) open(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.written &^= 1 << w.depth
}

func (w *jsonWriter) close(c byte) {
	if w.written&(1<<w.depth) != 0 {
		w.depth--
		w.newline()
	} else {
		w.depth--
	}
	w.b = append(w.b, c)
}

// next starts a member or element.
func (w *jsonWriter) next() {
	if w.written&(1<<w.depth) != 0 {
		w.b = append(w.b, ',')
	}
	w.written |= 1 << w.depth
	w.newline()
}

func (w *jsonWriter) key(k string) {
	w.next()
	w.b = value.AppendString(w.b, k)
	w.b = append(w.b, ':')
	if !w.compact {
		w.b = append(w.b, ' ')
	}
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.b = value.AppendString(w.b, v)
}

// strOmitEmpty is str for a member that upstream leaves out when empty.
func (w *jsonWriter) strOmitEmpty(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *jsonWriter) null() { w.b = append(w.b, "null"...) }

// rawValue writes JSON text, null if there is none.
func (w *jsonWriter) rawValue(raw json.RawMessage) {
	switch {
	case len(raw) == 0:
		w.null()
	case w.compact:
		w.b = append(w.b, raw...)
	default:
		w.b = value.AppendIndentedRaw(w.b, raw, w.depth)
	}
}

// list starts a member holding a list of n elements and reports whether
// its elements are to be written (then, each after next, and close(']')
// at the end). A nil list is null; omitEmpty leaves out an empty or nil
// one, as encoding/json's omitempty does.
func (w *jsonWriter) list(k string, n int, isNil, omitEmpty bool) bool {
	if omitEmpty && n == 0 {
		return false
	}
	w.key(k)
	if isNil {
		w.null()
		return false
	}
	w.open('[')
	return true
}

func (w *jsonWriter) properties(props []Property) {
	if !w.list("properties", len(props), props == nil, true) {
		return
	}
	for _, p := range props {
		w.next()
		w.open('{')
		w.str("type", p.Type)
		w.key("value")
		w.rawValue(p.Value)
		w.close('}')
	}
	w.close(']')
}

func (p *Package) writeJSON(w *jsonWriter) {
	w.open('{')
	w.str("schema", p.Schema)
	w.str("name", p.Name)
	w.str("defaultChannel", p.DefaultChannel)
	if p.Icon != nil {
		w.key("icon")
		w.open('{')
		w.key("base64data")
		if p.Icon.Data == nil {
			w.null()
		} else {
			w.b = append(w.b, '"')
			w.b = base64.StdEncoding.AppendEncode(w.b, p.Icon.Data)
			w.b = append(w.b, '"')
		}
		w.str("mediatype", p.Icon.MediaType)
		w.close('}')
	}
	w.strOmitEmpty("description", p.Description)
	w.properties(p.Properties)
	w.close('}')
}

func (c *Channel) writeJSON(w *jsonWriter) {
	w.open('{')
	w.str("schema", c.Schema)
	w.str("name", c.Name)
	w.str("package", c.Package)
	if w.list("entries", len(c.Entries), c.Entries == nil, false) {
		for i := range c.Entries {
			e := &c.Entries[i]
			w.next()
			w.open('{')
			w.str("name", e.Name)
			w.strOmitEmpty("replaces", e.Replaces)
			if w.list("skips", len(e.Skips), e.Skips == nil, true) {
				for _, s := range e.Skips {
					w.next()
					w.b = value.AppendString(w.b, s)
				}
				w.close(']')
			}
			w.strOmitEmpty("skipRange", e.SkipRange)
			w.close('}')
		}
		w.close(']')
	}
	w.properties(c.Properties)
	w.close('}')
}

func (b *Bundle) writeJSON(w *jsonWriter) {
	w.open('{')
	w.str("schema", b.Schema)
	w.strOmitEmpty("name", b.Name)
	w.strOmitEmpty("package", b.Package)
	w.str("image", b.Image)
	w.properties(b.Properties)
	if w.list("relatedImages", len(b.RelatedImages), b.RelatedImages == nil, true) {
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
}

func (d *Deprecation) writeJSON(w *jsonWriter) {
	w.open('{')
	w.str("schema", d.Schema)
	w.str("package", d.Package)
	if w.list("entries", len(d.Entries), d.Entries == nil, false) {
		for i := range d.Entries {
			e := &d.Entries[i]
			w.next()
			w.open('{')
			w.key("reference")
			w.open('{')
			w.str("schema", e.Reference.Schema)
			w.strOmitEmpty("name", e.Reference.Name)
			w.close('}')
			w.str("message", e.Message)
			w.close('}')
		}
		w.close(']')
	}
	w.close('}')
}

// writeJSON writes the blob as it is: it is already upstream's normalised
// form.
func (m *Meta) writeJSON(w *jsonWriter) { w.rawValue(m.Blob) }

// described is a catalog type, described once.
type described interface{ writeJSON(*jsonWriter) }

// appendJSON appends an object as upstream writes it with -o json, with a
// final newline.
func appendJSON(b []byte, obj described) []byte {
	w := jsonWriter{b: b}
	obj.writeJSON(&w)
	return append(w.b, '\n')
}

var compactBufs = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// appendYAML appends an object as upstream writes it with -o yaml: "---",
// then the YAML form of its JSON.
func appendYAML(b []byte, obj described) ([]byte, error) {
	buf := compactBufs.Get().(*[]byte)
	defer compactBufs.Put(buf)
	w := jsonWriter{b: (*buf)[:0], compact: true}
	obj.writeJSON(&w)
	*buf = w.b
	return fbcyaml.AppendJSON(append(b, "---\n"...), w.b)
}

// AppendJSON appends p as upstream writes it with -o json, with a final
// newline.
func (p *Package) AppendJSON(b []byte) []byte { return appendJSON(b, p) }

// AppendJSON appends c as upstream writes it with -o json.
func (c *Channel) AppendJSON(b []byte) []byte { return appendJSON(b, c) }

// AppendJSON appends b as upstream writes it with -o json.
func (b *Bundle) AppendJSON(dst []byte) []byte { return appendJSON(dst, b) }

// AppendJSON appends d as upstream writes it with -o json.
func (d *Deprecation) AppendJSON(b []byte) []byte { return appendJSON(b, d) }

// AppendJSON appends m as upstream writes it with -o json.
func (m *Meta) AppendJSON(b []byte) []byte { return appendJSON(b, m) }

// AppendYAML appends p as upstream writes it with -o yaml, "---" included.
func (p *Package) AppendYAML(b []byte) ([]byte, error) { return appendYAML(b, p) }

// AppendYAML appends c as upstream writes it with -o yaml.
func (c *Channel) AppendYAML(b []byte) ([]byte, error) { return appendYAML(b, c) }

// AppendYAML appends b as upstream writes it with -o yaml.
func (b *Bundle) AppendYAML(dst []byte) ([]byte, error) { return appendYAML(dst, b) }

// AppendYAML appends d as upstream writes it with -o yaml.
func (d *Deprecation) AppendYAML(b []byte) ([]byte, error) { return appendYAML(b, d) }

// AppendYAML appends m as upstream writes it with -o yaml.
func (m *Meta) AppendYAML(b []byte) ([]byte, error) { return appendYAML(b, m) }
