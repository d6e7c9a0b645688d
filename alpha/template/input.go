package template

import (
	"bytes"
	"errors"
	"fmt"
	"unicode"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
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
		return nil, problemAt(in.Name, 0, "", "", errors.New("the template is empty"))
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
		var se *position.Error
		if errors.As(jerr, &se) {
			return nil, problemAt(in.Name, se.Line, "", "", fmt.Errorf("invalid JSON: %s (column %d)", se.Message, se.Column))
		}
		return nil, problemAt(in.Name, 0, "", "", fmt.Errorf("invalid JSON: %w", jerr))
	}
	return in.firstYAMLDocument()
}

func (in Input) firstYAMLDocument() (*document, error) {
	docs, splitErr := fbcyaml.SplitDocuments(in.Data, 1)
	if len(docs) == 0 {
		var se *position.Error
		if errors.As(splitErr, &se) {
			return nil, problemAt(in.Name, se.Line, "", "", se)
		}
		return nil, problemAt(in.Name, 0, "", "", errors.New("the template is empty"))
	}
	d := docs[0]
	v, err := fbcyaml.Decode(d.Data, d.Line)
	if err != nil {
		// At the line upstream names, which is not always the one Decode
		// names for a catalog.
		ye := fbcyaml.SyntaxError(d.Data, d.Line, err)
		return nil, problemAt(in.Name, ye.Line, "", "", fmt.Errorf("invalid YAML: %s", ye.Message))
	}
	if v.Kind == value.Null {
		return nil, problemAt(in.Name, int(d.Line), "", "", errors.New("the template's first YAML document is empty"))
	}
	return &document{value: v, raw: d.Data, line: d.Line}, nil
}
