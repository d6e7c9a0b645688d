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

func TestWithPath(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	_, err := os.Open(missing)
	got := WithPath(err)
	if got.Error() != missing+": no such file or directory" {
		t.Errorf("WithPath(%v) = %q, want the path and the cause without the operation", err, got)
	}
	if !errors.Is(got, fs.ErrNotExist) {
		t.Errorf("WithPath(%v) no longer wraps fs.ErrNotExist", err)
	}
	if got := WithPath(fmt.Errorf("loading: %w", err)); got.Error() != missing+": no such file or directory" {
		t.Errorf("WithPath of a wrapped PathError = %q", got)
	}
	other := errors.New("other")
	if WithPath(other) != other {
		t.Error("WithPath changed an error that is no PathError")
	}
}
