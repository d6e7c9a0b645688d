package filter

import "fmt"

// NotFoundError is the error for a package or channel the filter keeps
// that the catalog does not have: the request is refused (commands exit
// 1), as opposed to a failure to read the catalog.
type NotFoundError struct{ Msg string }

func (e *NotFoundError) Error() string { return e.Msg }

// Refused reports that the request was refused (see cmd/opm's exit codes).
func (e *NotFoundError) Refused() bool { return true }

func notFound(format string, args ...any) error {
	return &NotFoundError{Msg: fmt.Sprintf(format, args...)}
}
