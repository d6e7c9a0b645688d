package template

import (
	"bytes"
	"errors"
	"fmt"
	"unicode"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
)

// Input is a template's text and the name messages call it by: its file
// name, or "<stdin>".
type Input struct {
	Name string
	Data []byte
}

// document is the first YAML or JSON document of a template, the only one
// upstream reads.
type document struct {
	value value.Value
	raw   []byte // its text, with "\n" line ends
	line  int32  // the line its text starts on
}

// sniffLen is how far upstream's decoder looks for a leading '{' that
// makes the input JSON rather than YAML.
const sniffLen = 4096

// firstDocument decodes the template's first document. Input that starts
// with '{' is JSON; if it does not parse as JSON it is read as YAML (which
// accepts, say, a trailing comma), as upstream's decoder does, and the
// JSON error is reported if that fails too.
func (in Input) firstDocument() (*document, error) {
	head := bytes.TrimLeftFunc(in.Data[:min(len(in.Data), sniffLen)], unicode.IsSpace)
	if len(head) == 0 && len(bytes.TrimSpace(in.Data)) == 0 {
		return nil, &Error{File: in.Name, Err: errors.New("the template is empty")}
	}
	if len(head) > 0 && head[0] == '{' {
		p := value.NewJSONParser(in.Data, 1)
		v, jerr := p.Next()
		if jerr == nil {
			return &document{value: v, raw: in.Data[:p.Offset()], line: 1}, nil
		}
		if doc, err := in.firstYAMLDocument(); err == nil && doc.value.Kind == value.Object {
			return doc, nil
		}
		var se *value.SyntaxError
		if errors.As(jerr, &se) {
			return nil, &Error{File: in.Name, Line: int(se.Line), Err: fmt.Errorf("invalid JSON: %s (column %d)", se.Msg, se.Col)}
		}
		return nil, &Error{File: in.Name, Err: fmt.Errorf("invalid JSON: %w", jerr)}
	}
	return in.firstYAMLDocument()
}

func (in Input) firstYAMLDocument() (*document, error) {
	docs, splitErr := fbcyaml.SplitDocuments(in.Data, 1)
	if len(docs) == 0 {
		var se *fbcyaml.SeparatorError
		if errors.As(splitErr, &se) {
			return nil, &Error{File: in.Name, Line: int(se.Line), Err: se}
		}
		return nil, &Error{File: in.Name, Err: errors.New("the template is empty")}
	}
	d := docs[0]
	v, err := fbcyaml.Decode(d.Data, d.Line)
	if err != nil {
		// At the line upstream names, which is not always the one Decode
		// names for a catalog.
		ye := fbcyaml.SyntaxError(d.Data, d.Line, err)
		return nil, &Error{File: in.Name, Line: int(ye.Line), Err: fmt.Errorf("invalid YAML: %s", ye.Msg)}
	}
	if v.Kind == value.Null {
		return nil, &Error{File: in.Name, Line: int(d.Line), Err: errors.New("the template's first YAML document is empty")}
	}
	return &document{value: v, raw: d.Data, line: d.Line}, nil
}
