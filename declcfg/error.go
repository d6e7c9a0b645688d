package declcfg

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is one problem with a catalog, at a position, naming the objects it
// concerns.
type Error struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Schema  string `json:"schema,omitempty"`
	Package string `json:"package,omitempty"`
	Channel string `json:"channel,omitempty"`
	Bundle  string `json:"bundle,omitempty"`
	Message string `json:"message"`
	// Cause, when set, names what this problem shares with others: the
	// problems of one cause (a package defined twice) have equal causes,
	// so that reports can list them together.
	Cause string `json:"cause,omitempty"`
}

// Error formats the problem as "file:line:col: subject: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Location())
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if s := e.Subject(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Location is "file:line:col", as much of it as is known, with the file
// name quoted if it must be (see QuoteFileName).
func (e *Error) Location() string {
	s := QuoteFileName(e.File)
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
		if e.Column > 0 {
			s += fmt.Sprintf(":%d", e.Column)
		}
	}
	return s
}

// QuoteFileName returns a file name to print: as it is, or, if it holds
// characters that are not printable (control characters such as escape
// sequences and line breaks, invisible formatting characters, bytes that
// are not UTF-8), quoted as Go's %q quotes strings, so that it can neither
// drive the terminal nor split a line of output.
func QuoteFileName(name string) string {
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == utf8.RuneError && size <= 1 || !strconv.IsPrint(r) {
			return strconv.Quote(name)
		}
		i += size
	}
	return name
}

// Subject names what the problem is about, e.g.
// `bundle "foo.v1" (package "foo", channel "stable")`.
func (e *Error) Subject() string {
	var what string
	var ctx []string
	switch {
	case e.Bundle != "" || e.Schema == SchemaBundle:
		what = fmt.Sprintf("bundle %q", e.Bundle)
		if e.Bundle == "" {
			what = "bundle without a name"
		}
		if e.Package != "" {
			ctx = append(ctx, fmt.Sprintf("package %q", e.Package))
		}
		if e.Channel != "" {
			ctx = append(ctx, fmt.Sprintf("channel %q", e.Channel))
		}
	case e.Channel != "" || e.Schema == SchemaChannel:
		what = fmt.Sprintf("channel %q", e.Channel)
		if e.Channel == "" {
			what = "channel without a name"
		}
		if e.Package != "" {
			ctx = append(ctx, fmt.Sprintf("package %q", e.Package))
		}
	case e.Package != "":
		what = fmt.Sprintf("package %q", e.Package)
	}
	if len(ctx) > 0 {
		what += " (" + strings.Join(ctx, ", ") + ")"
	}
	return what
}

// ErrorList is a list of problems, in file and line order once sorted.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Sort orders the list by file, line, column, then message, and drops exact
// duplicates.
func (l *ErrorList) Sort() {
	slices.SortStableFunc(*l, compareErrors)
	*l = slices.CompactFunc(*l, func(a, b *Error) bool { return *a == *b })
}

func compareErrors(a, b *Error) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Package, b.Package),
		cmp.Compare(a.Channel, b.Channel),
		cmp.Compare(a.Bundle, b.Bundle),
		cmp.Compare(a.Message, b.Message),
	)
}
