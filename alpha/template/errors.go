package template

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// Error is a problem with a template: the template's name, the line when
// it is known, the format, and the entry it concerns.
type Error struct {
	File  string
	Line  int
	Kind  Kind   // "" while the format is not known yet
	Entry string // the entry's path, e.g. "stable.bundles[2]"; "" for the whole template
	Err   error
}

// Error formats the problem as
// `file:line: semver template: stable.bundles[2]: message`.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Kind != "" {
		b.WriteString(string(e.Kind))
		b.WriteString(" template: ")
	}
	if e.Entry != "" {
		b.WriteString(e.Entry)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errors is every problem found with a template, in template order.
type Errors []*Error

func (l Errors) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap is the problems, for errors.Is and errors.As.
func (l Errors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// sorted puts the problems in template order (by line, stably).
func (l Errors) sorted() Errors {
	slices.SortStableFunc(l, func(a, b *Error) int { return cmp.Compare(a.Line, b.Line) })
	return l
}

// err returns nil for no problems, else the list.
func (l Errors) err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// source makes errors for one template.
type source struct {
	file string
	kind Kind
}

// errorf makes a problem with entry, at node's line (or the template's
// start when node is nil or has no position).
func (s source) errorf(node *value.Value, entry, format string, args ...any) *Error {
	return s.wrap(node, entry, fmt.Errorf(format, args...))
}

func (s source) wrap(node *value.Value, entry string, err error) *Error {
	e := &Error{File: s.file, Kind: s.kind, Entry: entry, Err: err}
	if node != nil {
		e.Line = int(node.Line)
	}
	return e
}
