// Package fserr shapes file system errors for messages that name the file
// themselves.
package fserr

import (
	"errors"
	"fmt"
	"io/fs"
)

// Cause drops the operation and path an fs.PathError repeats ("open
// x.yaml: permission denied" becomes "permission denied"), since the
// caller's message names the file already. Other errors are returned as
// they are.
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// WithPath drops only the operation of an fs.PathError ("open x.yaml:
// permission denied" becomes "x.yaml: permission denied"), for messages
// that name a directory or an image but not the file inside it. Other
// errors are returned as they are.
func WithPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}
