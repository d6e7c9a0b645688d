package stage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes name → text files into a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// replace is the File that replaces old with new at path.
func replace(path, old, new string) File {
	return File{Path: path, Old: Digest([]byte(old)), Text: Text{[]byte(new)}}
}

// removeStaged removes a run's staged text i, so that its rename fails.
func removeStaged(root, i string) {
	staged, _ := filepath.Glob(filepath.Join(root, Dir, "run-*", i))
	for _, f := range staged {
		os.Remove(f)
	}
}

// checkFiles checks the texts of files (absent for "").
func checkFiles(t *testing.T, root string, want map[string]string) {
	t.Helper()
	for name, text := range want {
		data, err := os.ReadFile(filepath.Join(root, name))
		if text == "" && !os.IsNotExist(err) || text != "" && (err != nil || string(data) != text) {
			t.Errorf("%s: %q, %v; want %q", name, data, err, text)
		}
	}
}

// TestWritePutsBack fails the second rename of a run: the file the first
// replaced gets its text and permissions back, and nothing is left in
// the staging directory.
func TestWritePutsBack(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.yaml": "a old\n", "b.yaml": "b old\n"})
	os.Chmod(filepath.Join(root, "a.yaml"), 0o600)
	files := []File{
		{Path: "a.yaml", Old: Digest([]byte("a old\n")), Text: Text{[]byte("a "), []byte("new\n")}},
		replace("b.yaml", "b old\n", "b new\n"),
		{Path: "c.yaml", Text: Text{[]byte("c new\n")}},
	}
	err := writer{step: func(step string) {
		if step == "renamed 0" {
			removeStaged(root, "1")
		}
	}}.write(context.Background(), root, files)
	if err == nil || !strings.Contains(err.Error(), "writing b.yaml") {
		t.Fatalf("Write: %v", err)
	}
	checkFiles(t, root, map[string]string{"a.yaml": "a old\n", "b.yaml": "b old\n", "c.yaml": ""})
	if st, _ := os.Stat(filepath.Join(root, "a.yaml")); st.Mode().Perm() != 0o600 {
		t.Errorf("a.yaml's permissions: %v", st.Mode())
	}
	if _, err := os.Stat(filepath.Join(root, Dir)); !os.IsNotExist(err) {
		t.Errorf("the staging directory is left: %v", err)
	}
}

// TestWritePutsBackNewDirs fails a rename after a new file was moved into
// directories the run made: undoing removes the file and the
// directories, but not one that existed.
func TestWritePutsBackNewDirs(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.yaml": "a old\n"})
	os.Mkdir(filepath.Join(root, "old"), 0o755)
	files := []File{
		{Path: "old/new/deeper/c.yaml", Text: Text{[]byte("c\n")}},
		{Path: "old/d.yaml", Text: Text{[]byte("d\n")}},
		replace("a.yaml", "a old\n", "a new\n"),
	}
	err := writer{step: func(step string) {
		if step == "renamed 1" {
			removeStaged(root, "2")
		}
	}}.write(context.Background(), root, files)
	if err == nil || !strings.Contains(err.Error(), "writing a.yaml") {
		t.Fatalf("Write: %v", err)
	}
	entries, err := os.ReadDir(filepath.Join(root, "old"))
	if err != nil || len(entries) != 0 {
		t.Errorf("old/ holds %v, %v; want it empty", entries, err)
	}
	checkFiles(t, root, map[string]string{"a.yaml": "a old\n"})
}

// TestWriteUndoLeavesHandEdit changes a file the run wrote once it has
// started undoing: the file is left as it is and named, the rest is put
// back.
func TestWriteUndoLeavesHandEdit(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.yaml": "a old\n", "b.yaml": "b old\n", "c.yaml": "c old\n"})
	files := []File{replace("a.yaml", "a old\n", "a new\n"), replace("b.yaml", "b old\n", "b new\n"), replace("c.yaml", "c old\n", "c new\n")}
	err := writer{step: func(step string) {
		switch step {
		case "renamed 1":
			removeStaged(root, "2")
		case "aborting":
			os.WriteFile(filepath.Join(root, "a.yaml"), []byte("by hand\n"), 0o644)
		}
	}}.write(context.Background(), root, files)
	if err == nil || !strings.Contains(err.Error(), "could not restore a.yaml: it has changed since opm wrote it") {
		t.Fatalf("Write: %v", err)
	}
	checkFiles(t, root, map[string]string{"a.yaml": "by hand\n", "b.yaml": "b old\n", "c.yaml": "c old\n"})
	if err := Check(root); err != nil {
		t.Errorf("Check: %v", err)
	}
}

// TestWriteUndoFailureLeftToRecover makes a file impossible to put back
// (its kept text gone for a while): the run's directory stays, marked
// aborting, Check refuses the repository, and Recover, once the kept text
// is back, undoes the rest.
func TestWriteUndoFailureLeftToRecover(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.yaml": "a old\n", "b.yaml": "b old\n"})
	files := []File{replace("a.yaml", "a old\n", "a new\n"), replace("b.yaml", "b old\n", "b new\n")}
	var kept string
	err := writer{step: func(step string) {
		switch step {
		case "renamed 0":
			removeStaged(root, "1")
		case "aborting":
			old, _ := filepath.Glob(filepath.Join(root, Dir, "run-*", "0.old"))
			kept = old[0] + ".away"
			os.Rename(old[0], kept)
		}
	}}.write(context.Background(), root, files)
	if err == nil || !strings.Contains(err.Error(), "could not restore a.yaml") {
		t.Fatalf("Write: %v", err)
	}
	var ie *InterruptedError
	if err := Check(root); !errors.As(err, &ie) || !ie.Undoing || ie.Alive || !strings.Contains(err.Error(), Dir+"/run-") {
		t.Fatalf("Check: %v", err)
	}
	if err := os.Rename(kept, strings.TrimSuffix(kept, ".away")); err != nil {
		t.Fatal(err)
	}
	rec, err := Recover(root)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, root, map[string]string{"a.yaml": "a old\n", "b.yaml": "b old\n"})
	if notes := strings.Join(rec.Notes(), "\n"); !strings.Contains(notes, "now undone") || rec.PutBack != 1 {
		t.Errorf("Recover: %+v, %q", rec, notes)
	}
	if err := Check(root); err != nil {
		t.Errorf("Check after Recover: %v", err)
	}
}
