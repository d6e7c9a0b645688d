package stage

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestHolds checks the comparison of a file with the text it was read
// as, a piece at a time: equal, a byte changed anywhere (past the first
// piece too), shorter, longer.
func TestHolds(t *testing.T) {
	text := bytes.Repeat([]byte("0123456789abcdef"), 10000) // 160 KB: three pieces
	name := filepath.Join(t.TempDir(), "catalog.yaml")
	changed := func(i int) []byte { c := bytes.Clone(text); c[i] ^= 1; return c }
	for _, tc := range []struct {
		name string
		disk []byte
		want bool
	}{
		{"equal", text, true},
		{"first byte", changed(0), false},
		{"second piece", changed(70000), false},
		{"last byte", changed(len(text) - 1), false},
		{"shorter", text[:len(text)-1], false},
		{"longer", append(bytes.Clone(text), '\n'), false},
		{"empty", nil, false},
	} {
		if err := os.WriteFile(name, tc.disk, 0o640); err != nil {
			t.Fatal(err)
		}
		same, err := Holds(name, Text{text})
		if err != nil || same != tc.want {
			t.Errorf("%s: Holds = %v, %v; want %v", tc.name, same, err, tc.want)
		}
	}
	if _, err := Holds(filepath.Join(t.TempDir(), "missing"), Text{text}); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}

// umask is the process's umask, as the permissions of a new file show it.
func umask(t *testing.T) os.FileMode {
	name := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(name, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ st.Mode().Perm()
}
