package author

import (
	"fmt"

	"github.com/fbcat/opm/internal/suggest"
)

// UnknownNameError is the refusal of a name the repository does not have
// (an operator, bundle, channel, template or version): what is wrong, the
// names it is likely a slip of (suggest.Near) or, when it is near none,
// the names there are.
type UnknownNameError struct {
	Kind    string   // operator, bundle, channel, template or version
	Name    string   // as given
	Problem string   // what is wrong, without the hint
	Near    []string // the names it may be a slip of, closest first
	Known   []string // when none is near: the names there are, sorted
}

func (e *UnknownNameError) Error() string {
	switch {
	case len(e.Near) > 0:
		return fmt.Sprintf("%s: did you mean %s?", e.Problem, suggest.Or(e.Near))
	case len(e.Known) > 0:
		return fmt.Sprintf("%s (%ss: %s)", e.Problem, e.Kind, suggest.List(e.Known))
	}
	return e.Problem
}

// unknownName refuses a name that is none of the existing ones: near
// names the ones it is likely a slip of (nil to find them with
// suggest.Near).
func unknownName(kind, name string, near, existing []string, format string, args ...any) error {
	if near == nil {
		near = suggest.Near(name, existing)
	}
	e := &UnknownNameError{Kind: kind, Name: name, Problem: fmt.Sprintf(format, args...), Near: near}
	if len(near) == 0 {
		e.Known = existing
	}
	return &Refusal{Msg: e.Error(), Err: e}
}
