package catalogrepo

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/fbcat/opm/internal/suggest"
)

// Refusal is an error of what cannot be done because of the repository's
// content or what was asked of it (a name it does not have, a catalog
// that does not load), as opposed to a failure to read or write files.
// The catalog verbs refuse with it too.
type Refusal struct {
	Msg string
	Err error // the cause, if any
}

func (r *Refusal) Error() string { return r.Msg }
func (r *Refusal) Unwrap() error { return r.Err }

// Refused reports that the request was refused, not a failure to run (as
// the other packages' refusals say: cmd/opm's exit codes ask this).
func (r *Refusal) Refused() bool { return true }

// Refuse is the Refusal of a message formatted as fmt.Errorf formats it,
// wrapping what %w names.
func Refuse(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Refusal{Msg: err.Error(), Err: errors.Unwrap(err)}
}

// UnknownName refuses a name that is none of the existing ones: near
// names the ones it is likely a slip of (nil to find them with
// suggest.Near).
func UnknownName(kind, name string, near, existing []string, format string, args ...any) *Refusal {
	e := suggest.NewUnknown(kind, name, near, existing, fmt.Sprintf(format, args...))
	return &Refusal{Msg: e.Error(), Err: e}
}

// NotRepositoryError is the error of a directory taken for a catalog
// repository's root that has no operators/ directory. Every way into a
// repository (see Repo.CheckRoot) and lint say it in these words; the
// catalog verbs add what their caller gives to fix it.
type NotRepositoryError struct {
	Root string // the directory, absolute
}

func (e *NotRepositoryError) Error() string {
	return fmt.Sprintf("%s is not a catalog repository (it has no operators/ directory)", e.Root)
}

// notARepository is the NotRepositoryError of root, named as an absolute
// path (a root found from the working directory is ".").
func notARepository(root string) *NotRepositoryError {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return &NotRepositoryError{Root: root}
}
