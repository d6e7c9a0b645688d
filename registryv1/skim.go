package registryv1

import (
	"bytes"
	"slices"

	"github.com/fbcat/opm/encoding/value"
)

// Skimming a manifest: what a bundle's checks need of most of its files
// (the apiVersion, kind and name of the first document's object and, of a
// CRD, the names of its versions and which are served) read off the
// lines of a YAML manifest in block style without building its tree. A
// bundle's CRDs are most of its bytes and their schemas most of those;
// the tree is built when something needs more (FirstObject).
//
// Skim reads only what it can read as FirstObject would: block mappings
// and sequences, keys and the scalars it returns plain or quoted without
// escapes. Anything else (JSON, flow collections where it reads, anchors,
// tags, multi-line scalars, tabs, a repeated key, a name that a YAML
// resolver could take for something other than a string) makes it give
// up, and the caller decodes the file.

// Head is what Skim reads of a manifest.
type Head struct {
	APIVersion, Kind, Name string
	// Line is the first line of the object.
	Line int
	// Versions are a CRD's spec.versions (names, in order), Served which
	// of them are served, Version its spec.version; all empty for other
	// kinds.
	Versions []string
	Served   map[string]bool
	Version  string
	// Stored are the versions a CRD's objects may be stored in, as
	// lint/crdcompat reads them: those of spec.versions with storage:
	// true (without spec.versions, spec.version), then those of
	// status.storedVersions. Scope is its spec.scope; ScopeLine and
	// VersionsLine the lines of spec.scope and spec.versions (0 when
	// absent).
	Stored                  []string
	Scope                   string
	ScopeLine, VersionsLine int
}

// Skim reads the Head of the first document of a manifest file; ok is
// false when it cannot say what FirstObject would (the caller decodes the
// file then), or when the document is not an object with a kind.
func Skim(data []byte, sniff int) (h Head, ok bool) {
	if value.LooksLikeJSON(data, sniff) {
		return h, false
	}
	lines, ok := firstDocLines(data)
	if !ok || len(lines) == 0 {
		return h, false
	}
	s := skimmer{lines: lines}
	top, ok := s.mapping(0, len(lines), 0)
	if !ok || len(top) == 0 {
		return h, false
	}
	h.Line = lines[top[0].at].num
	if h.APIVersion, ok = s.scalar(top, "apiVersion"); !ok {
		return h, false
	}
	if h.Kind, ok = s.scalar(top, "kind"); !ok || h.Kind == "" {
		return Head{}, false
	}
	md, ok := s.child(top, "metadata")
	if !ok {
		return h, false
	}
	if md != nil {
		if h.Name, ok = s.scalar(md, "name"); !ok {
			return h, false
		}
	}
	if h.Kind == "CustomResourceDefinition" {
		if ok = s.crdVersions(top, &h); !ok {
			return h, false
		}
	}
	return h, true
}

// line is one line of the document: its number in the file, its
// indentation and its text after it (without a trailing "\r"); deeper
// says lines indented past maxIndent follow it, which are not kept.
type line struct {
	num    int
	indent int
	text   []byte
	deeper bool
}

// maxIndent is the deepest indentation of the lines Skim reads (keys of a
// CRD's versions: "spec", "  versions", "  - name" and their keys, the
// indentations of two or four): deeper lines (schemas, descriptions) are
// only counted below the line before them.
const maxIndent = 12

// firstDocLines are the lines of the first document of a YAML stream
// that hold something (not blank, not a comment), as
// fbcyaml.SplitDocuments splits them: a "---" line before any content
// starts the document, one after ends it. ok is false for what Skim does
// not read: directives, "..." ends, a separator followed by content,
// tabs in indentation.
func firstDocLines(data []byte) (out []line, ok bool) {
	num := 0
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end < 0 {
			end = len(data)
		} else {
			end += off
			next = end + 1
		}
		num++
		l := bytes.TrimSuffix(data[off:end], []byte{'\r'})
		off = next
		if bytes.HasPrefix(l, []byte("---")) {
			if rest := bytes.TrimSpace(l[3:]); len(rest) > 0 && rest[0] != '#' {
				return nil, false
			}
			if len(out) > 0 {
				return out, true
			}
			continue
		}
		indent := 0
		for indent < len(l) && l[indent] == ' ' {
			indent++
		}
		rest := l[indent:]
		switch {
		case indent > maxIndent && len(out) > 0:
			if len(rest) > 0 && rest[0] != '#' {
				out[len(out)-1].deeper = true
			}
			continue
		case len(rest) == 0 || rest[0] == '#':
			continue
		case rest[0] == '\t' || indent == 0 && (rest[0] == '%' || bytes.HasPrefix(rest, []byte("..."))):
			return nil, false
		}
		out = append(out, line{num: num, indent: indent, text: bytes.TrimRight(rest, " \t")})
	}
	return out, true
}

// skimmer reads the lines of a document.
type skimmer struct {
	lines []line
}

// entry is one key of a block mapping: its line (an index of lines), its
// key, its value on that line (nil when it is below), and the lines below
// it: [from, to).
type entry struct {
	at       int
	key      string
	inline   []byte
	from, to int
	// deeper says lines past maxIndent follow the key's line directly.
	deeper bool
}

// below reports whether the key has lines below it.
func (e *entry) below() bool { return e.from != e.to || e.deeper }

// mapping reads the block mapping of lines [from, to) whose keys are at
// indentation indent (the first of them may follow a "- " on the line
// before: first says where its key starts). ok is false for anything but
// plain keys at that indentation, and for a repeated key.
func (s *skimmer) mapping(from, to, indent int) (out []entry, ok bool) {
	for i := from; i < to; {
		l := s.lines[i]
		if l.indent != indent {
			return nil, false
		}
		key, inline, ok := splitKey(l.text)
		if !ok || inline != nil && !wholeOnItsLine(inline) {
			return nil, false
		}
		for _, e := range out {
			if e.key == key {
				return nil, false
			}
		}
		j := i + 1
		for j < to && (s.lines[j].indent > indent || inline == nil && s.lines[j].indent == indent && isItem(s.lines[j].text)) {
			j++ // below the key: deeper lines, or a sequence's items at its indentation
		}
		out = append(out, entry{at: i, key: key, inline: inline, from: i + 1, to: j, deeper: l.deeper})
		i = j
	}
	return out, true
}

// isItem reports whether a line starts a sequence's item.
func isItem(text []byte) bool { return text[0] == '-' && (len(text) == 1 || text[1] == ' ') }

// splitKey splits "key: value" (or "key:") into its plain key and the
// value, nil when there is none on the line (a comment is none).
func splitKey(text []byte) (key string, inline []byte, ok bool) {
	i := bytes.IndexByte(text, ':')
	for i >= 0 && i+1 < len(text) && text[i+1] != ' ' {
		j := bytes.IndexByte(text[i+1:], ':')
		if j < 0 {
			return "", nil, false
		}
		i += 1 + j
	}
	if i <= 0 || !plainKey(text[:i]) {
		return "", nil, false
	}
	v := bytes.TrimSpace(text[i+1:])
	if len(v) == 0 || v[0] == '#' {
		return string(text[:i]), nil, true
	}
	return string(text[:i]), v, true
}

// wholeOnItsLine reports whether an inline value ends on its line: its
// quotes closed and its flow collections' brackets balanced, and only a
// comment after it.
func wholeOnItsLine(v []byte) bool {
	depth := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"' || c == '\'':
			if i > 0 && depth == 0 {
				continue // inside a plain scalar, a quote is a character
			}
			j := i + 1
			for ; j < len(v); j++ {
				if c == '"' && v[j] == '\\' {
					j++
				} else if v[j] == c {
					if c == '\'' && j+1 < len(v) && v[j+1] == '\'' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(v) {
				return false
			}
			i = j
		case c == '[' || c == '{':
			if i > 0 && depth == 0 {
				continue
			}
			depth++
		case c == ']' || c == '}':
			if depth == 0 {
				continue
			}
			depth--
		case c == '#' && i > 0 && v[i-1] == ' ':
			return depth == 0
		}
	}
	return depth == 0
}

// plainKey reports whether k is a key Skim reads: letters, digits and
// ._-/ only, starting with a letter, digit or underscore.
func plainKey(k []byte) bool {
	for i, c := range k {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		case i > 0 && (c == '.' || c == '-' || c == '/'):
		default:
			return false
		}
	}
	return len(k) > 0
}

// find is the entry of a key, nil if the mapping has none.
func find(m []entry, key string) *entry {
	for i := range m {
		if m[i].key == key {
			return &m[i]
		}
	}
	return nil
}

// scalar is the string value of a key of m ("" when the key is absent or
// null, as StringAt reads it); ok is false when the value is something
// Skim does not read, or not certainly a string.
func (s *skimmer) scalar(m []entry, key string) (string, bool) {
	e := find(m, key)
	if e == nil {
		return "", true
	}
	if e.inline == nil {
		return "", !e.below() // null, unless a value follows below
	}
	if e.below() {
		return "", false // a scalar continued on the lines below
	}
	return stringScalar(e.inline)
}

// child is the mapping below a key of m, nil when the key is absent or
// null; ok is false for anything else.
func (s *skimmer) child(m []entry, key string) ([]entry, bool) {
	e := find(m, key)
	switch {
	case e == nil:
		return nil, true
	case e.inline != nil:
		return nil, false
	case !e.below():
		return nil, true
	case e.from == e.to:
		return nil, false // only lines Skim does not keep
	}
	return s.mapping(e.from, e.to, s.lines[e.from].indent)
}

// crdVersions reads a CRD's spec.version and spec.versions: each item's
// name and served.
func (s *skimmer) crdVersions(top []entry, h *Head) bool {
	spec, ok := s.child(top, "spec")
	if !ok {
		return false
	}
	if spec == nil {
		return true
	}
	if h.Version, ok = s.scalar(spec, "version"); !ok {
		return false
	}
	if h.Scope, ok = s.scalar(spec, "scope"); !ok {
		return false
	}
	if e := find(spec, "scope"); e != nil {
		h.ScopeLine = s.lines[e.at].num
	}
	if !s.crdVersionList(spec, h) {
		return false
	}
	return s.storedVersions(top, h)
}

// crdVersionList reads spec.versions: each item's name, served and
// storage.
func (s *skimmer) crdVersionList(spec []entry, h *Head) bool {
	e := find(spec, "versions")
	switch {
	case e != nil && e.inline == nil && e.from == e.to && e.deeper:
		return false // only lines Skim does not keep
	case e != nil && e.inline == nil && !e.below():
		h.VersionsLine = s.lines[e.at].num // null
	}
	if e == nil || e.inline == nil && !e.below() {
		if h.Version != "" {
			h.Stored = append(h.Stored, h.Version)
		}
		return true
	}
	if e.inline != nil {
		h.VersionsLine = s.lines[e.at].num
		return string(e.inline) == "[]"
	}
	h.VersionsLine = s.lines[e.from].num // the list's first item
	h.Served = map[string]bool{}
	for i := e.from; i < e.to; {
		l := s.lines[i]
		if l.indent != s.lines[e.from].indent || !bytes.HasPrefix(l.text, []byte("- ")) {
			return false
		}
		j := i + 1
		for j < e.to && s.lines[j].indent > l.indent {
			j++
		}
		item, ok := s.item(i, j)
		if !ok {
			return false
		}
		name, ok := s.scalar(item, "name")
		if !ok {
			return false
		}
		served, ok := boolScalar(find(item, "served"))
		if !ok {
			return false
		}
		storage, ok := boolScalar(find(item, "storage"))
		if !ok {
			return false
		}
		h.Versions = append(h.Versions, name)
		if served {
			h.Served[name] = true
		}
		if storage {
			h.Stored = append(h.Stored, name)
		}
		i = j
	}
	return true
}

// storedVersions adds status.storedVersions to h.Stored, each once.
func (s *skimmer) storedVersions(top []entry, h *Head) bool {
	e := find(top, "status")
	if e != nil && e.inline != nil {
		return string(e.inline) == "{}" || nullScalar(e.inline)
	}
	status, ok := s.child(top, "status")
	if !ok {
		return false
	}
	sv := find(status, "storedVersions")
	switch {
	case sv == nil:
		return true
	case sv.inline != nil:
		return string(sv.inline) == "[]" || nullScalar(sv.inline)
	case sv.deeper:
		return false
	}
	for i := sv.from; i < sv.to; i++ {
		l := s.lines[i]
		if l.indent != s.lines[sv.from].indent || !isItem(l.text) || len(l.text) < 3 {
			return false
		}
		v, ok := stringScalar(bytes.TrimLeft(l.text[2:], " "))
		if !ok {
			return false
		}
		if !slices.Contains(h.Stored, v) {
			h.Stored = append(h.Stored, v)
		}
	}
	return true
}

// item reads the mapping of a sequence item: "- key: value" on line i and
// its keys below, [i+1, to), at the indentation of the first key.
func (s *skimmer) item(i, to int) ([]entry, bool) {
	l := s.lines[i]
	first := line{num: l.num, indent: l.indent + 2, text: bytes.TrimLeft(l.text[2:], " "), deeper: l.deeper}
	if len(l.text) > 2 && l.text[2] == ' ' || first.indent > maxIndent {
		return nil, false // "-   key": an indentation of its own; or keys Skim does not keep
	}
	sub := skimmer{lines: append([]line{first}, s.lines[i+1:to]...)}
	m, ok := sub.mapping(0, len(sub.lines), first.indent)
	if !ok {
		return nil, false
	}
	return m, true
}

// nullScalar reports whether an inline value is null.
func nullScalar(v []byte) bool {
	switch string(v) {
	case "null", "Null", "NULL", "~":
		return true
	}
	return false
}

// boolScalar reads a boolean: absent is false.
func boolScalar(e *entry) (b, ok bool) {
	if e == nil {
		return false, true
	}
	if e.inline == nil || e.below() {
		return false, false
	}
	switch string(e.inline) {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

// stringScalar reads a scalar that is certainly a string: one quoted
// without escapes, or a plain one starting with a letter (so no number)
// of letters, digits and ._-/ that no YAML resolver takes for a boolean
// or null. A comment may follow.
func stringScalar(v []byte) (string, bool) {
	switch v[0] {
	case '"', '\'':
		end := bytes.IndexByte(v[1:], v[0])
		if end < 0 || v[0] == '"' && bytes.IndexByte(v[1:1+end], '\\') >= 0 {
			return "", false
		}
		rest := bytes.TrimSpace(v[2+end:])
		if len(rest) > 0 && rest[0] != '#' || v[0] == '\'' && bytes.HasPrefix(v[2+end:], []byte("'")) {
			return "", false
		}
		return string(v[1 : 1+end]), true
	}
	if i := bytes.Index(v, []byte(" #")); i >= 0 {
		v = bytes.TrimRight(v[:i], " ")
	}
	if !(v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') || !plainKey(v) || resolvesOtherwise(string(v)) {
		return "", false
	}
	return string(v), true
}

// resolvesOtherwise reports whether a plain scalar of letters could be a
// boolean or null to a YAML 1.1 or 1.2 resolver.
func resolvesOtherwise(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"true", "True", "TRUE", "false", "False", "FALSE",
		"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL":
		return true
	}
	return false
}
