package fbcyaml

import (
	"bytes"
	"fmt"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// Doc is one YAML document of a stream.
type Doc struct {
	Data     []byte // the document's lines, each ending in "\n"
	Line     int32  // line of the stream where Data starts
	Off, End int    // the document's bytes in the stream, before normalising
}

// SplitDocuments splits a YAML stream into documents the way upstream's
// decoder does: a line starting with "---" ends the current document; line
// endings are normalised to "\n"; a separator met while no document has
// started is kept as the first line of the next document; a document that
// is empty in bytes is no document at all. firstLine is the line number of
// data's first byte. Splitting stops at the first bad separator (a "---"
// line followed by something other than a comment), returning the
// documents before it together with its *position.Error.
//
// Documents share data's memory where they can (no "\r\n" line ends, a
// final line break present); otherwise they are copies.
func SplitDocuments(data []byte, firstLine int32) ([]Doc, error) {
	var docs []Doc
	start := -1 // offset where the current document starts, -1 if none
	curLine := firstLine
	line := firstLine
	flush := func(end int) {
		docs = append(docs, Doc{Data: normalize(data[start:end]), Line: curLine, Off: start, End: end})
		start = -1
	}
	// off is always at the start of a line; the lines up to the next
	// separator are skipped at once, counted by their line breaks.
	for off := 0; off < len(data); {
		at := nextSeparator(data, off)
		if at > off {
			if start < 0 {
				start, curLine = off, line
			}
			line += int32(bytes.Count(data[off:at], []byte{'\n'}))
		}
		if at == len(data) {
			break
		}
		end := bytes.IndexByte(data[at:], '\n')
		next := len(data)
		if end < 0 {
			end = len(data)
		} else {
			end += at
			next = end + 1
		}
		l := bytes.TrimSuffix(data[at:end], []byte{'\r'})
		if rest := bytes.TrimSpace(l[3:]); len(rest) > 0 && rest[0] != '#' {
			if start >= 0 {
				flush(at)
			}
			return docs, separatorError(line, rest)
		}
		if start >= 0 {
			flush(at)
		} else {
			start, curLine = at, line
		}
		off = next
		line++
	}
	if start >= 0 {
		flush(len(data))
	}
	return docs, nil
}

// nextSeparator is the offset of the first line at or after off (a line
// start) that starts with "---", or len(data).
func nextSeparator(data []byte, off int) int {
	if bytes.HasPrefix(data[off:], separator) {
		return off
	}
	if i := bytes.Index(data[off:], lineSeparator); i >= 0 {
		return off + i + 1
	}
	return len(data)
}

var (
	separator     = []byte("---")
	lineSeparator = []byte("\n---")
)

// DecodeDocument decodes one document of a stream, given its bytes as
// they are in the stream (Doc.Off to Doc.End) and the line they start at.
func DecodeDocument(raw []byte, line int32) (value.Value, error) {
	return Decode(normalize(raw), line)
}

// normalize returns a document's bytes with "\r\n" line ends turned into
// "\n" and a final line break, copying only if something must change.
func normalize(d []byte) []byte {
	if bytes.IndexByte(d, '\r') < 0 && len(d) > 0 && d[len(d)-1] == '\n' {
		return d
	}
	out := make([]byte, 0, len(d)+1)
	for len(d) > 0 {
		i := bytes.IndexByte(d, '\n')
		if i < 0 {
			// A last line without a line break keeps a trailing "\r", as
			// bufio.Reader.ReadLine does.
			out = append(out, d...)
			out = append(out, '\n')
			break
		}
		out = append(out, bytes.TrimSuffix(d[:i], []byte{'\r'})...)
		out = append(out, '\n')
		d = d[i+1:]
	}
	return out
}

// separatorError is a "---" line, on line, followed by rest, which is not
// a comment.
func separatorError(line int32, rest []byte) *position.Error {
	return &position.Error{Line: int(line), Message: fmt.Sprintf("invalid document separator %q: only a comment may follow \"---\" on its line", "--- "+string(rest))}
}
