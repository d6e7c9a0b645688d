package option

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

var words = map[Name]string{
	"p.Req.Channel":  "--to",
	"p.Req.Bundle":   "the <bundle> argument",
	"p.Options.Pull": "--pull",
	"p.Repo.Expand":  "opm render %s --dry-run",
}

// TestSay: each kind of Error says its options as Go names them (type and
// field, without the package) and in a caller's words.
func TestSay(t *testing.T) {
	for _, tt := range []struct {
		err       *Error
		kind      Kind
		gos, flag string
	}{
		{Required("p.Req.Channel", "the channel"), Missing, "Req.Channel is required: the channel", "--to is required: the channel"},
		{Invalidf("p.Req.Bundle", "invalid bundle name %q", "a b"), Invalid, `Req.Bundle: invalid bundle name "a b"`, `the <bundle> argument: invalid bundle name "a b"`},
		{OneOf("p.Req.Bundle", "p.Req.Channel", "p.Req.Other"), Conflict, "give exactly one of Req.Bundle, Req.Channel and Req.Other", "give exactly one of the <bundle> argument, --to and Req.Other"},
		{Lifting("x is missing", ": pass %s", Name("p.Options.Pull")), Lifts, "x is missing: pass Options.Pull", "x is missing: pass --pull"},
		{Lifting("differs", "; see %s, or %s", With{"p.Repo.Expand", "w"}, Names{"p.Options.Pull"}), Lifts, "differs; see Repo.Expand w, or Options.Pull", "differs; see opm render w --dry-run, or --pull"},
		{Errorf(Conflict, "%s and %s conflict (%d)", Name("p.Req.Channel"), Name("plain"), 2), Conflict, "Req.Channel and plain conflict (2)", "--to and plain conflict (2)"},
	} {
		if tt.err.Kind != tt.kind {
			t.Errorf("%v: kind %d, want %d", tt.err, tt.err.Kind, tt.kind)
		}
		if got := tt.err.Error(); got != tt.gos {
			t.Errorf("Error() = %q, want %q", got, tt.gos)
		}
		if got := tt.err.Say(words); got != tt.flag {
			t.Errorf("Say = %q, want %q", got, tt.flag)
		}
	}
	if got := Name("p.Repo.Expand").In(words); got != "opm render --dry-run" {
		t.Errorf("words without a value: %q", got)
	}
	if got := Names(nil); fmt.Sprint(Errorf(Invalid, "[%s]", got)) != "[]" {
		t.Errorf("no names: %v", Errorf(Invalid, "[%s]", got))
	}
}

// TestWrapped: an Error wraps its %w operands, and the options of Errors
// inside them are said in the caller's words too.
func TestWrapped(t *testing.T) {
	inner := Lifting("no catalog holds x", ": pass %s", Name("p.Options.Pull"))
	outer := Errorf(Invalid, "%s: %w", Name("p.Req.Bundle"), inner)
	if !errors.Is(outer, inner) {
		t.Error("the wrapped Error is not in the chain")
	}
	if got, want := outer.Say(words), "the <bundle> argument: no catalog holds x: pass --pull"; got != want {
		t.Errorf("Say = %q, want %q", got, want)
	}
	if got := outer.Names(); len(got) != 1 || got[0] != "p.Req.Bundle" {
		t.Errorf("Names = %v", got)
	}
	if Required("p.Req.Bundle", "x").Unwrap() != nil {
		t.Error("an Error without %w wraps something")
	}
	two := Errorf(Invalid, "%w and %w", fs.ErrNotExist, fs.ErrExist)
	if !errors.Is(two, fs.ErrNotExist) || !errors.Is(two, fs.ErrExist) {
		t.Errorf("two wrapped errors: %v", two.Unwrap())
	}
}

// TestAllAndJoined: All finds the Errors of a tree, outermost first;
// Joined splits a join, never an Error.
func TestAllAndJoined(t *testing.T) {
	a, b := Required("p.Req.Bundle", "a"), Required("p.Req.Channel", "b")
	tree := fmt.Errorf("verb: %w", errors.Join(a, fmt.Errorf("more: %w", b)))
	if got := All(tree); len(got) != 2 || got[0] != a || got[1] != b {
		t.Errorf("All = %v", got)
	}
	if All(nil) != nil || All(errors.New("plain")) != nil {
		t.Error("Errors in a tree without any")
	}
	if got := Joined(errors.Join(a, b)); len(got) != 2 {
		t.Errorf("Joined(join) = %v", got)
	}
	if got := Joined(Errorf(Invalid, "%w, %w", a, b)); len(got) != 1 {
		t.Errorf("Joined(Error) = %v", got)
	}
	if Joined(nil) != nil {
		t.Error("Joined(nil)")
	}
}
