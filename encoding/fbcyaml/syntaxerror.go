package fbcyaml

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"

	"github.com/fbcat/opm/position"
)

// SyntaxError is the one place a YAML syntax error of a file the user
// wrote (a template, ci.yaml, release-config.yaml, a lint configuration)
// gets its line: the line upstream names for it. data is the text, or the
// part of it that starts on file line first.
//
// It is the first error go-yaml v2, the parser behind sigs.k8s.io/yaml and
// so upstream's, finds reading data's documents, with go-yaml's message at
// the line go-yaml names in it, counted from first. go-yaml names the line
// of a problem of its parser one less than the line the problem was found
// on, and none at all for a problem found on the first line, which is then
// put on first; a problem it knows no place of (an undefined alias) gets
// none (Line 0). A tab in the indentation of the line named is said to be
// one. Only the syntax is checked: aliases are not expanded, and what
// go-yaml refuses only when it decodes (a merge of a scalar) passes.
//
// When go-yaml v2 reads data without error, err (the error another parser,
// such as go-yaml v3 or Decode, found in data) is placed instead: a
// *position.Error as it is, a go-yaml message at the line it names,
// anything else without a line. Line is 0 when there is no line to name.
// The error names no file: a caller places it in its file once (see
// position.Within).
func SyntaxError(data []byte, first int32, err error) *position.Error {
	if e := v2SyntaxError(data); e != nil {
		return placeGoYAML(e, data, first, true)
	}
	var fe *position.Error
	if errors.As(err, &fe) {
		return fe
	}
	if err == nil {
		return nil
	}
	return placeGoYAML(err, data, first, false)
}

// v2SyntaxError reads every document of data with go-yaml v2, building
// nothing of them, and returns the first error.
func v2SyntaxError(data []byte) error {
	dec := yamlv2.NewDecoder(bytes.NewReader(data))
	for {
		var doc unread
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// unread is a document parsed and not decoded: its aliases are not
// expanded and its values not typed.
type unread struct{}

func (*unread) UnmarshalYAML(func(any) error) error { return nil }

// goYAMLLine reads the line of a go-yaml v2 or v3 message ("yaml: line N:
// msg", or "yaml: unmarshal errors:\n  line N: msg" for the first of
// several).
var goYAMLLine = regexp.MustCompile(`^(?:yaml: )?(?:unmarshal errors:\s*)?line (\d+): ((?s).*)$`)

// placeGoYAML is a go-yaml error of data at the file line it names; v2
// says it is go-yaml v2's, whose messages without a line are of the first
// line unless unplaced.
func placeGoYAML(err error, data []byte, first int32, v2 bool) *position.Error {
	msg := strings.TrimSpace(err.Error())
	if m := goYAMLLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		line := first + int32(n) - 1
		e := &position.Error{Line: int(line), Message: depthMsg(m[2])}
		if col := indentTab(data, first, line); col > 0 {
			e.Column, e.Message = int(col), tabMsg(e.Message)
		}
		return e
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	e := &position.Error{Message: depthMsg(msg)}
	if v2 && !unplaced(msg) {
		e.Line = int(first)
	}
	return e
}

// unplaced reports whether go-yaml says msg of no place at all: its
// problems of aliases and merges are found after parsing, where it keeps
// no position. Its other messages without a line are of the first line.
func unplaced(msg string) bool {
	for _, prefix := range []string{"unknown anchor ", "anchor ", "document contains excessive aliasing", "map merge requires"} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

// indentTab is the column of a tab in the indentation of file line line
// of data (which starts on file line first), or 0 when it has none or the
// line is blank or a comment.
func indentTab(data []byte, first, line int32) int32 {
	for n := first; len(data) > 0; n++ {
		end := bytes.IndexByte(data, '\n')
		if end < 0 {
			end = len(data)
		}
		if n == line {
			l := data[:end]
			indent := len(l) - len(bytes.TrimLeft(l, " \t"))
			if tab := bytes.IndexByte(l[:indent], '\t'); tab >= 0 && indent < len(bytes.TrimRight(l, " \t\r")) && l[indent] != '#' {
				return int32(tab) + 1
			}
			return 0
		}
		if end == len(data) {
			break
		}
		data = data[end+1:]
	}
	return 0
}

// tabMsg says that a tab caused go-yaml's problem msg: its words for it
// ("found character that cannot start any token") do not say tab.
func tabMsg(msg string) string {
	return "tab in indentation; YAML indents with spaces only: replace the tab with spaces (" + msg + ")"
}
