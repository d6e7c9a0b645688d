package textdiff

import (
	"bytes"
	"fmt"
	"strings"
)

// Kind is what a text has at its first line that differs from the line
// it should have.
type Kind int

// The kinds of first difference.
const (
	Other      Kind = iota // another line
	Comment                // a comment line, or a comment after the line it should be
	Blank                  // a blank line
	WhiteSpace             // the line it should be, spaced differently
	Ended                  // nothing: the text ends there
	Extra                  // a line after the end of the text it should be
)

// First is where a text first differs from the one it should be.
type First struct {
	// Line is the text's first line that differs (1 is the first); one
	// past its last when it ends first.
	Line int
	Kind Kind
	// Old is the text's line there and New the one it should be ("" past
	// an end); Comment is the comment of a Comment.
	Old, New, Comment string
}

// FirstDifference compares old with the text it should be, new, line by
// line ("\r\n" read as "\n"), and says where and how it first differs;
// Line is 0 when they do not.
func FirstDifference(old, new []byte) First {
	a, b := textLines(old), textLines(new)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	f := First{Line: i + 1}
	switch {
	case i == len(a) && i == len(b):
		return First{}
	case i == len(a):
		f.Kind, f.New = Ended, b[i]
	case i == len(b):
		f.Kind, f.Old = Extra, a[i]
	default:
		f.Old, f.New = a[i], b[i]
		f.Kind, f.Comment = lineKind(a[i], b[i])
	}
	return f
}

// lineKind says how line old differs from line new.
func lineKind(old, new string) (Kind, string) {
	trimmed := strings.TrimSpace(old)
	rest, after := strings.CutPrefix(old, new)
	rest = strings.TrimSpace(rest)
	switch {
	case strings.HasPrefix(trimmed, "#"):
		return Comment, trimmed
	case trimmed == "":
		return Blank, ""
	case after && strings.HasPrefix(rest, "#") && len(rest) < len(old)-len(new):
		return Comment, rest
	case strings.Join(strings.Fields(old), " ") == strings.Join(strings.Fields(new), " "):
		return WhiteSpace, ""
	}
	return Other, ""
}

// What says in words what the text has at Line, where writer (such as
// "the template") writes New, with verb the verb for what it does (such
// as "render").
func (f First) What(writer, verb string) string {
	switch f.Kind {
	case Comment:
		return fmt.Sprintf("a comment %s does not %s (%s)", writer, verb, Quote(f.Comment))
	case Blank:
		return fmt.Sprintf("a blank line %s does not %s", writer, verb)
	case WhiteSpace:
		return fmt.Sprintf("white space %s does not %s", writer, verb)
	case Ended:
		return fmt.Sprintf("the text ends here, where %s %ss %s", writer, verb, Quote(f.New))
	case Extra:
		what := Quote(f.Old)
		switch trimmed := strings.TrimSpace(f.Old); {
		case trimmed == "":
			what = "a blank line"
		case strings.HasPrefix(trimmed, "#"):
			what = "a comment (" + Quote(trimmed) + ")"
		}
		return fmt.Sprintf("%s after the end of what %s %ss", what, writer, verb)
	}
	return fmt.Sprintf("%s %ss %s here", writer, verb, Quote(f.New))
}

// Quote quotes a line for a message, cut to 60 characters.
func Quote(line string) string {
	if r := []rune(line); len(r) > 60 {
		line = string(r[:57]) + "..."
	}
	return fmt.Sprintf("%q", line)
}

// textLines splits a text into its lines, without their line ends.
func textLines(data []byte) []string {
	s := string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
