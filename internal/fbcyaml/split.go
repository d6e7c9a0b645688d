package fbcyaml

import (
	"bytes"
	"fmt"
)

// Doc is one YAML document of a stream.
type Doc struct {
	Data []byte // the document's lines, each ending in "\n"
	Line int32  // line of the stream where Data starts
}

// SeparatorError is a "---" line followed by something other than a comment.
type SeparatorError struct {
	Line int32
	Rest string
}

func (e *SeparatorError) Error() string {
	return fmt.Sprintf("invalid document separator %q: only a comment may follow \"---\" on its line", "--- "+e.Rest)
}

// SplitDocuments splits a YAML stream into documents the way upstream's
// decoder does: a line starting with "---" ends the current document; line
// endings are normalised to "\n"; a separator met while no document has
// started is kept as the first line of the next document; a document that
// is empty in bytes is no document at all. firstLine is the line number of
// data's first byte. Splitting stops at the first bad separator, returning
// the documents before it together with the error.
func SplitDocuments(data []byte, firstLine int32) ([]Doc, error) {
	var docs []Doc
	var cur []byte
	curLine := firstLine
	line := firstLine
	for len(data) > 0 {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
			l = bytes.TrimSuffix(l, []byte{'\r'})
		} else {
			l, data = data, nil
		}
		if bytes.HasPrefix(l, []byte("---")) {
			rest := bytes.TrimSpace(l[3:])
			if len(rest) > 0 && rest[0] != '#' {
				return docs, &SeparatorError{Line: line, Rest: string(rest)}
			}
			if len(cur) > 0 {
				docs = append(docs, Doc{Data: cur, Line: curLine})
				cur = nil
				line++
				curLine = line
				continue
			}
		}
		if len(cur) == 0 {
			curLine = line
		}
		cur = append(cur, l...)
		cur = append(cur, '\n')
		line++
	}
	if len(cur) > 0 {
		docs = append(docs, Doc{Data: cur, Line: curLine})
	}
	return docs, nil
}
