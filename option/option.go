// Package option is how the library names an option its caller gives.
// Every options and request type of the library checks itself
// (Validate() error), and every error about an option, one given wrong
// or one whose other value would lift a refusal, is an *Error that names
// the option by its Go package, type and field (a Name). A caller that
// sets options its own way, a command line with its flags, says them in
// its own words with Say, from one table; Error says them as Go does.
package option

import (
	"errors"
	"fmt"
	"strings"
)

// Name is an option as the library's API names it: package, type and
// field, a field of a field dotted ("author.ReleaseRequest.Target.Replaces").
type Name string

// String is how the library's own messages name the option: its type
// and field ("ReleaseRequest.Target.Replaces").
func (n Name) String() string {
	if _, rest, ok := strings.Cut(string(n), "."); ok {
		return rest
	}
	return string(n)
}

// In is the option in a caller's words: words[n], or its Go name where
// words has none (see Error.Say).
func (n Name) In(words map[Name]string) string { return say(n, "", words) }

// Names are options said together, as "A, B and C".
type Names []Name

// With is an option named with the value the caller is to give it (an
// operator, for a command that takes one): a caller's words for the
// option place the value at %s, or are followed by it.
type With struct {
	Name  Name
	Value string
}

// Kind is what an Error says about its options.
type Kind int

const (
	// Missing is an option that must be given and was not.
	Missing Kind = iota + 1
	// Invalid is an option with a value it cannot have.
	Invalid
	// Conflict is options that exclude each other given together, or
	// none of options one of which must be given.
	Conflict
	// Lifts is something that was refused or failed, which another value
	// of the option lifts: not a mistake in the options.
	Lifts
)

// Error is an error about options: its message, made as fmt.Errorf makes
// one, names each by an operand of type Name, Names or With.
type Error struct {
	Kind Kind
	// Problem, for Lifts, is what was refused or failed, in words that
	// name no option; the message follows it with what lifts it.
	Problem string
	format  string
	args    []any
}

// Errorf makes an Error: format and args as fmt.Errorf takes them (a %w
// operand is the error it wraps), the operands of type Name, Names and
// With being the options it names.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, format: format, args: args}
}

// Lifting is the error of a problem that another value of an option
// lifts: the message is problem followed by format and args, which name
// the option and say how it lifts the problem.
func Lifting(problem, format string, args ...any) *Error {
	return &Error{Kind: Lifts, Problem: problem, format: format, args: args}
}

// Required is the error of an option that must be given; why says what
// it is for.
func Required(n Name, why string) *Error { return Errorf(Missing, "%s is required: %s", n, why) }

// Invalidf is the error of an option with a bad value: format and args
// say what is wrong with it, naming the value, and what a good one looks
// like.
func Invalidf(n Name, format string, args ...any) *Error {
	return Errorf(Invalid, "%s: %s", n, fmt.Sprintf(format, args...))
}

// OneOf is the error of options exactly one of which must be given.
func OneOf(names ...Name) *Error { return Errorf(Conflict, "give exactly one of %s", Names(names)) }

func (e *Error) Error() string { return e.Say(nil) }

// Say is the message with each option in the caller's words: words[name]
// ("%s" in them placing a With's value), or the Go name where words has
// none.
func (e *Error) Say(words map[Name]string) string {
	args := make([]any, len(e.args))
	for i, a := range e.args {
		switch a := a.(type) {
		case Name:
			args[i] = say(a, "", words)
		case With:
			args[i] = say(a.Name, a.Value, words)
		case Names:
			said := make([]string, len(a))
			for j, n := range a {
				said[j] = say(n, "", words)
			}
			args[i] = list(said)
		case error:
			args[i] = errorWords(a, words)
		default:
			args[i] = a
		}
	}
	return e.Problem + fmt.Sprintf(strings.ReplaceAll(e.format, "%w", "%v"), args...)
}

// errorWords is a wrapped error's message, with the options of the
// Errors in its chain in the caller's words.
func errorWords(err error, words map[Name]string) string {
	msg := err.Error()
	if words == nil {
		return msg
	}
	for _, oe := range All(err) {
		msg = strings.Replace(msg, oe.Error(), oe.Say(words), 1)
	}
	return msg
}

func say(n Name, value string, words map[Name]string) string {
	w, ok := words[n]
	switch {
	case !ok && value != "":
		return n.String() + " " + value
	case !ok:
		return n.String()
	case strings.Contains(w, "%s"):
		// without a value, the words without its place
		return strings.Join(strings.Fields(fmt.Sprintf(w, value)), " ")
	case value != "":
		return w + " " + value
	}
	return w
}

// list says items as "A", "A and B", "A, B and C".
func list(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// Names are the options the error names, in its message's order.
func (e *Error) Names() []Name {
	var out []Name
	for _, a := range e.args {
		switch a := a.(type) {
		case Name:
			out = append(out, a)
		case With:
			out = append(out, a.Name)
		case Names:
			out = append(out, a...)
		}
	}
	return out
}

// Unwrap is the errors the message wraps (its %w operands).
func (e *Error) Unwrap() []error {
	switch u := fmt.Errorf(e.format, e.args...).(type) {
	case interface{ Unwrap() error }:
		return []error{u.Unwrap()}
	case interface{ Unwrap() []error }:
		return u.Unwrap()
	}
	return nil
}

// All are the Errors in err's tree, outermost first; an Error's own
// wrapped errors are not searched (its message says them).
func All(err error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case nil:
		case *Error:
			out = append(out, e)
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				walk(inner)
			}
		default:
			walk(errors.Unwrap(err))
		}
	}
	walk(err)
	return out
}

// Joined are the errors err joins (errors.Join), or err alone.
func Joined(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if _, own := err.(*Error); !own {
			return j.Unwrap()
		}
	}
	if err == nil {
		return nil
	}
	return []error{err}
}
