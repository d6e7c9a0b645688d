package fserr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestCause(t *testing.T) {
	_, err := os.ReadFile(filepath.Join(t.TempDir(), "missing"))
	if got := Cause(err); got != fs.ErrNotExist && !errors.Is(got, fs.ErrNotExist) || got.Error() != "no such file or directory" {
		t.Errorf("Cause(%v) = %v, want the bare cause", err, got)
	}
	if got := Cause(fmt.Errorf("reading: %w", err)); got.Error() != "no such file or directory" {
		t.Errorf("Cause of a wrapped PathError = %v", got)
	}
	other := errors.New("other")
	if Cause(other) != other {
		t.Error("Cause changed an error that is no PathError")
	}
}
