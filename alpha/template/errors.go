package template

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// Problem is what a problem with a template concerns beyond its place:
// the format and the entry. Each problem is a *position.Error (the
// template's name, the line when it is known) whose cause is a Problem:
// `file:line: semver template: stable.bundles[2]: message`.
type Problem struct {
	Kind  Kind   // "" while the format is not known yet
	Entry string // the entry's path, e.g. "stable.bundles[2]"; "" for the whole template
	Err   error
}

// Error formats the problem as `semver template: stable.bundles[2]:
// message`.
func (p *Problem) Error() string {
	var b strings.Builder
	if p.Kind != "" {
		b.WriteString(string(p.Kind))
		b.WriteString(" template: ")
	}
	if p.Entry != "" {
		b.WriteString(p.Entry)
		b.WriteString(": ")
	}
	b.WriteString(p.Err.Error())
	return b.String()
}

func (p *Problem) Unwrap() error { return p.Err }

// problemAt is a problem with template file at line (0: the template as
// a whole).
func problemAt(file string, line int, kind Kind, entry string, err error) *position.Error {
	return &position.Error{File: file, Line: line, Err: &Problem{Kind: kind, Entry: entry, Err: err}}
}

// Errors is every problem found with a template, in template order: each
// a *position.Error whose cause is a *Problem.
type Errors []*position.Error

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
	slices.SortStableFunc(l, func(a, b *position.Error) int { return cmp.Compare(a.Line, b.Line) })
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
func (s source) errorf(node *value.Value, entry, format string, args ...any) *position.Error {
	return s.wrap(node, entry, fmt.Errorf(format, args...))
}

func (s source) wrap(node *value.Value, entry string, err error) *position.Error {
	line := 0
	if node != nil {
		line = int(node.Line)
	}
	return problemAt(s.file, line, s.kind, entry, err)
}
