package model

import "fmt"

// NotFoundError is the error of a package, channel or bundle asked for by
// name that a catalog does not have (a filter configuration's, a
// ClusterExtension's selection): the request is refused (commands exit
// 1), as opposed to a failure to read the catalog. Msg says what is
// missing, and what the catalog has instead.
type NotFoundError struct{ Msg string }

func (e *NotFoundError) Error() string { return e.Msg }

// Refused reports that the request was refused (see cmd/opm's exit codes).
func (e *NotFoundError) Refused() bool { return true }

// NotFound is the NotFoundError whose message fmt.Sprintf formats.
func NotFound(format string, args ...any) error {
	return &NotFoundError{Msg: fmt.Sprintf(format, args...)}
}
