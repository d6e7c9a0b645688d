package memfile

import (
	"errors"
	"io"
	"io/fs"
	"testing"
)

func TestInfo(t *testing.T) {
	f, d := NewInfo("a.yaml", 12, false), NewInfo("manifests", 4096, true)
	if f.Name() != "a.yaml" || f.Size() != 12 || f.IsDir() || f.Mode() != 0o444 || f.Type() != 0 || !f.ModTime().IsZero() || f.Sys() != nil {
		t.Errorf("file info %+v", f)
	}
	if !d.IsDir() || d.Size() != 4096 || d.Mode() != fs.ModeDir|0o555 || d.Type() != fs.ModeDir {
		t.Errorf("directory info %+v", d)
	}
	if i, err := f.Info(); err != nil || i != f {
		t.Errorf("Info() = %v, %v", i, err)
	}
}

func TestFile(t *testing.T) {
	f := NewFile(NewInfo("a", 3, false), []byte("abc"))
	data, err := io.ReadAll(f)
	if err != nil || string(data) != "abc" || string(f.Data) != "abc" {
		t.Errorf("read %q, %v; Data %q", data, err, f.Data)
	}
	if st, err := f.Stat(); err != nil || st.Size() != 3 {
		t.Errorf("Stat() = %v, %v", st, err)
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}
}

func TestDir(t *testing.T) {
	entries := []fs.DirEntry{NewInfo("a", 1, false), NewInfo("b", 0, true), NewInfo("c", 2, false)}
	d := NewDir(NewInfo("m", 0, true), "x/m", entries)
	if _, err := d.Read(make([]byte, 1)); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Read: %v", err)
	}
	first, err := d.ReadDir(2)
	if err != nil || len(first) != 2 || first[0].Name() != "a" {
		t.Fatalf("ReadDir(2) = %v, %v", first, err)
	}
	first[0] = nil // the caller's copy
	rest, err := d.ReadDir(0)
	if err != nil || len(rest) != 1 || rest[0].Name() != "c" || entries[0] == nil {
		t.Fatalf("ReadDir(0) = %v, %v", rest, err)
	}
	if more, err := d.ReadDir(1); len(more) != 0 || err != io.EOF {
		t.Errorf("ReadDir(1) at the end = %v, %v", more, err)
	}
	if st, err := d.Stat(); err != nil || !st.IsDir() || d.Close() != nil {
		t.Errorf("Stat() = %v, %v", st, err)
	}
}
