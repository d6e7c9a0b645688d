package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/position"
)

// File is one YAML (or JSON) file being edited. Edits are recorded against
// the original text and applied together by Bytes.
type File struct {
	t       *text
	doc     *yaml.Node                  // the first document
	later   []any                       // the documents after it, decoded
	links   map[*yaml.Node]link         // every node of doc: where it sits
	aliases map[*yaml.Node][]*yaml.Node // anchored node -> the aliases of it
	style   style
	ops     []op
	// mutate, when set (by tests), changes the edited text before it is
	// verified, to prove that verification catches a wrong result.
	mutate func([]byte) []byte
}

// link is where a node sits in the tree.
type link struct {
	parent *yaml.Node
	key    *yaml.Node // the key of a mapping value
	index  int        // position in parent.Content
	depth  int
}

// Parse reads the first document of data; name is used in errors, which
// read "name:line:col: ...". Later documents are kept as they are.
func Parse(name string, data []byte) (*File, error) {
	t, err := newText(name, data)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: no YAML document", name)
		}
		return nil, yamlError(name, data, err)
	}
	if len(doc.Content) != 1 {
		return nil, fmt.Errorf("%s: an empty document", name)
	}
	var first any
	if err := doc.Decode(&first); err != nil {
		return nil, yamlError(name, data, err)
	}
	later, err := decodeRest(dec)
	if err != nil {
		return nil, yamlError(name, data, err)
	}
	f := &File{t: t, doc: &doc, later: later, links: map[*yaml.Node]link{}, aliases: map[*yaml.Node][]*yaml.Node{}}
	f.index(&doc, link{})
	if err := f.checkKeys(&doc); err != nil {
		return nil, err
	}
	f.style = f.detectStyle()
	return f, nil
}

// checkKeys refuses a mapping with two keys that are written differently
// but read as the same value ("0" and "00"): the later one wins when the
// file is read, and edits by key would be ambiguous.
func (f *File) checkKeys(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				continue
			}
			id := "string:" + k.Value
			if k.Tag != "!!str" {
				var v any
				if k.Decode(&v) != nil {
					continue
				}
				id = fmt.Sprintf("%T:%v", v, v)
			}
			if p := seen[id]; p != nil {
				return fmt.Errorf("%s: the key %q is the same as the key %q at line %d", f.t.pos(k), k.Value, p.Value, p.Line)
			}
			seen[id] = k
		}
	}
	for _, c := range n.Content {
		if err := f.checkKeys(c); err != nil {
			return err
		}
	}
	return nil
}

// yamlError places an error go-yaml v3 found in data (nil when it is not
// the file's text) in name: "name:line: invalid YAML: message", at the
// line upstream's parser names (see fbcyaml.SyntaxError), as a template
// that is rendered says it.
func yamlError(name string, data []byte, err error) error {
	return position.Within(name, "invalid YAML", fbcyaml.SyntaxError(data, 1, err))
}

// decodeAll decodes every document of data as generic values.
func decodeAll(data []byte) ([]any, error) {
	return decodeRest(yaml.NewDecoder(bytes.NewReader(data)))
}

// decodeRest decodes the documents left in dec as generic values.
func decodeRest(dec *yaml.Decoder) ([]any, error) {
	var docs []any
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, v)
	}
}

// index records where every node sits and which aliases point where.
func (f *File) index(n *yaml.Node, l link) {
	f.links[n] = l
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		f.aliases[n.Alias] = append(f.aliases[n.Alias], n)
	}
	for i, c := range n.Content {
		cl := link{parent: n, index: i, depth: l.depth + 1}
		if n.Kind == yaml.MappingNode && i%2 == 1 {
			cl.key = n.Content[i-1]
		}
		f.index(c, cl)
	}
}

// Root is the first document's top node (the content of the DocumentNode).
func (f *File) Root() *yaml.Node { return f.doc.Content[0] }

// Changed reports whether an edit has been recorded.
func (f *File) Changed() bool { return len(f.ops) > 0 }

// Lookup finds the pair of mapping m whose key is exactly key. It returns
// nils when m is not a mapping or has no such key.
func Lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	return lookup(m, func(s string) bool { return s == key })
}

// LookupFold is Lookup with keys compared case-insensitively ("Stable" and
// "stable"), as semver templates are read.
func LookupFold(m *yaml.Node, key string) (k, v *yaml.Node) {
	return lookup(m, func(s string) bool { return strings.EqualFold(s, key) })
}

// String is the value of key in mapping m when it is a scalar, "" if
// none.
func String(m *yaml.Node, key string) string {
	if _, v := Lookup(m, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// Strings are the values of the sequence under key of mapping m, nil if
// none.
func Strings(m *yaml.Node, key string) []string {
	var out []string
	if _, v := Lookup(m, key); v != nil && v.Kind == yaml.SequenceNode {
		for _, s := range v.Content {
			out = append(out, s.Value)
		}
	}
	return out
}

func lookup(m *yaml.Node, match func(string) bool) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if c := m.Content[i]; c.Kind == yaml.ScalarNode && match(c.Value) {
			return c, m.Content[i+1]
		}
	}
	return nil, nil
}

// style is how the file writes what it holds; inserted text copies it.
type style struct {
	eol       string
	step      int  // indentation of a block mapping under its key
	seqIndent int  // indentation of a block sequence under its key (0: none)
	single    bool // the file quotes with single quotes more than double
	flowStep  int  // indentation step of multi-line flow collections
	jsonDoc   bool // the document is one flow collection (JSON)
}

// detectStyle reads the file's conventions, with defaults like the
// community templates: mappings indented by 2, sequences not indented.
func (f *File) detectStyle() style {
	s := style{eol: f.t.eol(), step: -1, seqIndent: -1, flowStep: -1}
	root := f.Root()
	s.jsonDoc = (root.Kind == yaml.MappingNode || root.Kind == yaml.SequenceNode) && isFlow(root)
	var singles, doubles int
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Style &^ (yaml.TaggedStyle | yaml.FlowStyle) {
		case yaml.SingleQuotedStyle:
			singles++
		case yaml.DoubleQuotedStyle:
			doubles++
		}
		f.detectIndents(n, &s)
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	s.single = singles > doubles
	s.step = defaultTo(s.step, 2)
	s.seqIndent = defaultTo(s.seqIndent, 0)
	s.flowStep = defaultTo(s.flowStep, 2)
	return s
}

func defaultTo(v, d int) int {
	if v < 0 {
		return d
	}
	return v
}

// detectIndents notes the first indentations seen under a block mapping's
// keys and inside a multi-line flow collection.
func (f *File) detectIndents(n *yaml.Node, s *style) {
	if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return
	}
	if isFlow(n) {
		c := n.Content[0]
		l, cl := f.t.lineOf(f.nodeStart(n)), f.t.lineOf(f.nodeStart(c))
		if s.flowStep < 0 && cl > l && f.t.onlySpaceBefore(f.nodeStart(c)) {
			a, _ := f.t.indent(l)
			b, _ := f.t.indent(cl)
			if b > a {
				s.flowStep = b - a
			}
		}
		return
	}
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isFlow(v) || f.t.lineOf(f.nodeStart(k)) == f.t.lineOf(f.firstContent(v)) {
			continue
		}
		d := f.colAt(f.firstContent(v)) - f.col(k)
		switch {
		case v.Kind == yaml.MappingNode && s.step < 0 && d > 0:
			s.step = d
		case v.Kind == yaml.SequenceNode && s.seqIndent < 0 && d >= 0:
			s.seqIndent = d
		}
	}
}

// firstContent is the offset of the first key or item of a block
// collection, past its anchor or tag.
func (f *File) firstContent(n *yaml.Node) int {
	if len(n.Content) > 0 && !isFlow(n) && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
		if n.Kind == yaml.SequenceNode {
			if d, err := f.dashOf(n.Content[0]); err == nil {
				return d
			}
		}
		return f.nodeStart(n.Content[0])
	}
	return f.nodeStart(n)
}
