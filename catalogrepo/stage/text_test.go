package stage

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestTextPieces checks that a text in pieces digests, joins and compares
// with a file as the same text in one piece does.
func TestTextPieces(t *testing.T) {
	whole := bytes.Repeat([]byte("0123456789abcdef"), 10000)
	pieces := Text{whole[:10], nil, whole[10:70000], whole[70000:70001], whole[70001:]}
	if pieces.Digest() != Digest(whole) || !bytes.Equal(pieces.Join(), whole) || pieces.Size() != len(whole) {
		t.Fatal("a text in pieces is not the text")
	}
	name := filepath.Join(t.TempDir(), "catalog.yaml")
	if sum, err := writeText(name, pieces, 0o640); err != nil || sum != Digest(whole) {
		t.Fatalf("writeText = %v, %v", sum, err)
	}
	if same, err := Holds(name, pieces); err != nil || !same {
		t.Errorf("Holds of the text written: %v, %v", same, err)
	}
	changed := bytes.Clone(whole)
	changed[70000] ^= 1
	if same, _ := Holds(name, Text{changed[:5], changed[5:]}); same {
		t.Error("Holds of a changed text")
	}
	if _, sum, err := fileDigest(name); err != nil || sum != Digest(whole) {
		t.Errorf("fileDigest = %v, %v", sum, err)
	}
}

// TestKeepOld keeps a file's text by a hard link and, for a symbolic
// link, by a copy of what it names.
func TestKeepOld(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "catalog.yaml")
	os.WriteFile(target, []byte("old\n"), 0o640)
	os.Symlink("catalog.yaml", filepath.Join(dir, "link.yaml"))
	for i, name := range []string{target, filepath.Join(dir, "link.yaml")} {
		old := filepath.Join(dir, "kept"+string(rune('0'+i)))
		mode, sum, err := keepOld(name, old)
		if err != nil || sum != Digest([]byte("old\n")) || mode != 0o640&^umask(t) {
			t.Errorf("%s: keepOld = %v, %v, %v", name, mode, sum, err)
		}
		if st, err := os.Lstat(old); err != nil || !st.Mode().IsRegular() {
			t.Errorf("%s: kept as %v, %v", name, st, err)
		}
	}
	if _, _, err := keepOld(filepath.Join(dir, "missing"), filepath.Join(dir, "kept9")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}
