package stage

import (
	"bytes"
	"fmt"
	"hash/crc64"
	"os"
	"path/filepath"
	"strings"
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

// A digest reads as the algorithm it names: a journal an older opm wrote
// (CRC-64) still matches the file it describes.
func TestSameDigestOfEitherAlgorithm(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, []byte("catalog text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{Digest([]byte("catalog text\n")), "crc64:" + fmt.Sprintf("%016x", crc64.Checksum([]byte("catalog text\n"), crc64.MakeTable(crc64.ECMA))) + ":13"} {
		if same, err := sameDigest(name, want); err != nil || !same {
			t.Errorf("%s: %v %v", want, same, err)
		}
	}
	if same, _ := sameDigest(name, "crc64:0000000000000000:13"); same {
		t.Error("a wrong CRC-64 matched")
	}
	if !strings.HasPrefix(Digest(nil), "crc32c:00000000:0") {
		t.Errorf("Digest(nil) = %s", Digest(nil))
	}
}
