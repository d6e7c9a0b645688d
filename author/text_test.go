package author

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTextPieces checks that a text in pieces digests, joins and compares
// with a file as the same text in one piece does.
func TestTextPieces(t *testing.T) {
	whole := bytes.Repeat([]byte("0123456789abcdef"), 10000)
	pieces := text{whole[:10], nil, whole[10:70000], whole[70000:70001], whole[70001:]}
	if pieces.digest() != digest(whole) || !bytes.Equal(pieces.join(), whole) || pieces.size() != len(whole) {
		t.Fatal("a text in pieces is not the text")
	}
	name := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := writeText(name, pieces, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, same, err := holdsText(name, pieces); err != nil || !same {
		t.Errorf("holdsText of the text written: %v, %v", same, err)
	}
	changed := bytes.Clone(whole)
	changed[70000] ^= 1
	if _, same, _ := holdsText(name, text{changed[:5], changed[5:]}); same {
		t.Error("holdsText of a changed text")
	}
	if _, sum, err := fileDigest(name); err != nil || sum != digest(whole) {
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
		if err != nil || sum != digest([]byte("old\n")) || mode != 0o640&^umask(t) {
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

// TestApplyPutsBack fails the second rename of a run: the file the first
// replaced gets its text and permissions back, and nothing is left in
// the staging directory.
func TestApplyPutsBack(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.yaml"), []byte("a old\n"), 0o600)
	os.WriteFile(filepath.Join(root, "b.yaml"), []byte("b old\n"), 0o644)
	p := &Plan{Root: root}
	p.add("a.yaml", KindCatalog, []byte("a old\n"), text{[]byte("a "), []byte("new\n")})
	p.add("b.yaml", KindCatalog, []byte("b old\n"), text{[]byte("b new\n")})
	p.add("c.yaml", KindCatalog, nil, text{[]byte("c new\n")})
	p.step = func(step string) {
		if step == "renamed 0" {
			runs, _ := filepath.Glob(filepath.Join(root, StagingDir, "run-*", "1"))
			for _, f := range runs {
				os.Remove(f)
			}
		}
	}
	if err := p.Apply(); err == nil || !strings.Contains(err.Error(), "writing b.yaml") {
		t.Fatalf("Apply: %v", err)
	}
	for name, want := range map[string]string{"a.yaml": "a old\n", "b.yaml": "b old\n"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil || string(data) != want {
			t.Errorf("%s: %q, %v", name, data, err)
		}
	}
	if st, _ := os.Stat(filepath.Join(root, "a.yaml")); st.Mode().Perm() != 0o600 {
		t.Errorf("a.yaml's permissions: %v", st.Mode())
	}
	if _, err := os.Stat(filepath.Join(root, "c.yaml")); !os.IsNotExist(err) {
		t.Errorf("c.yaml: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, StagingDir)); !os.IsNotExist(err) {
		t.Errorf("the staging directory is left: %v", err)
	}
}
