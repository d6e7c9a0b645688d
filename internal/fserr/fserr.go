// Package fserr shapes file system errors for messages that name the file
// themselves.
package fserr

import (
	"errors"
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
