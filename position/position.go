// Package position is the one error of a place in a file: the file, the
// line and column, what is wrong there and, when another error is behind
// it, its cause. Every reader of the module returns one or wraps one: the
// JSON and YAML parsers of encoding (which know no file name: File is ""
// until a caller places the error with Within), and the readers of
// templates, bundles, configuration files and repositories. A room keeps
// a type of its own only for what it adds beyond the place (a template's
// format and entry, a configuration key and its near misses), as the
// cause an Error wraps, found with errors.As; declcfg.Error, the problem
// of a catalog, also names the package, channel and bundle it concerns.
package position

import (
	"fmt"
	"strconv"
)

// Error is a problem at a place: "file:line:col: message". Line and
// Column are 1-based; 0 is unknown (a problem of the file as a whole, a
// line without a column).
type Error struct {
	File   string
	Line   int
	Column int
	// Message says what is wrong; when it is "", the cause's message is
	// the Error's.
	Message string
	// Err is the cause: the error this one was made of, or what the room
	// that made it adds (errors.Is and errors.As see it).
	Err error
}

// At is a problem at line of file (0: the file as a whole), its message
// made as fmt.Sprintf makes one.
func At(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Message: fmt.Sprintf(format, args...)}
}

// Within is e, an error of text read without its file name (a parser's),
// said of file: at e's line, its message after what the text failed to
// be ("invalid YAML"), e its cause. Its column is left out: the readers
// that place their parsers' errors name lines only.
func Within(file, what string, e *Error) *Error {
	return &Error{File: file, Line: e.Line, Message: what + ": " + e.Text(), Err: e}
}

// Error is "file:line:col: message", as much of the place as is known
// (see Location); without a file it is the message alone.
func (e *Error) Error() string {
	loc := e.Location()
	if loc == "" {
		return e.Text()
	}
	return loc + ": " + e.Text()
}

// Location is "file:line:col", as much of it as is known; "" without a
// file.
func (e *Error) Location() string {
	if e.File == "" {
		return ""
	}
	if e.Line <= 0 {
		return e.File
	}
	s := e.File + ":" + strconv.Itoa(e.Line)
	if e.Column > 0 {
		s += ":" + strconv.Itoa(e.Column)
	}
	return s
}

// Text is what is wrong, without the place: Message, or the cause's
// message.
func (e *Error) Text() string {
	if e.Message == "" && e.Err != nil {
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Err }
