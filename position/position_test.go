package position

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

func TestError(t *testing.T) {
	cause := errors.New("the cause")
	for _, tt := range []struct {
		name string
		e    *Error
		want string
	}{
		{"file, line and column", &Error{File: "a.yaml", Line: 3, Column: 7, Message: "bad"}, "a.yaml:3:7: bad"},
		{"file and line", &Error{File: "a.yaml", Line: 3, Message: "bad"}, "a.yaml:3: bad"},
		{"file only", &Error{File: "a.yaml", Message: "bad"}, "a.yaml: bad"},
		{"a column without a line", &Error{File: "a.yaml", Column: 7, Message: "bad"}, "a.yaml: bad"},
		{"no file: the message alone", &Error{Line: 3, Column: 7, Message: "bad"}, "bad"},
		{"the cause's message", &Error{File: "a.yaml", Line: 3, Err: cause}, "a.yaml:3: the cause"},
		{"the message before the cause's", &Error{File: "a.yaml", Message: "bad", Err: cause}, "a.yaml: bad"},
		{"At", At("ci.yaml", 4, "key %q is unknown", "x"), `ci.yaml:4: key "x" is unknown`},
		{"At the file as a whole", At("ci.yaml", 0, "empty"), "ci.yaml: empty"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.e.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWithin(t *testing.T) {
	parsed := &Error{Line: 5, Column: 2, Message: "mapping values are not allowed"}
	e := Within("release-config.yaml", "invalid YAML", parsed)
	if got, want := e.Error(), "release-config.yaml:5: invalid YAML: mapping values are not allowed"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if e.Column != 0 || !errors.Is(e, parsed) {
		t.Errorf("Within = %+v: want no column, the parser's error its cause", e)
	}
	unplaced := Within("t.yaml", "invalid YAML", &Error{Err: errors.New("unknown anchor")})
	if got, want := unplaced.Error(), "t.yaml: invalid YAML: unknown anchor"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// detail is what a room adds to a position: found with errors.As through
// the Error and any wrapping around it.
type detail struct {
	Key string
	Err error
}

func (d *detail) Error() string { return "key " + d.Key + ": " + d.Err.Error() }
func (d *detail) Unwrap() error { return d.Err }

func TestUnwrap(t *testing.T) {
	e := &Error{File: "f", Line: 1, Err: &detail{Key: "channels", Err: fs.ErrNotExist}}
	wrapped := fmt.Errorf("releasing: %w", e)
	var d *detail
	if !errors.As(wrapped, &d) || d.Key != "channels" {
		t.Fatalf("errors.As found no detail in %v", wrapped)
	}
	var p *Error
	if !errors.As(wrapped, &p) || p != e {
		t.Fatalf("errors.As found no *Error in %v", wrapped)
	}
	if !errors.Is(wrapped, fs.ErrNotExist) {
		t.Errorf("errors.Is does not reach the cause of %v", wrapped)
	}
	if got, want := wrapped.Error(), "releasing: f:1: key channels: file does not exist"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if (&Error{Message: "no cause"}).Unwrap() != nil {
		t.Error("an Error without a cause unwraps to one")
	}
}
