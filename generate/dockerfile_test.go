package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPath(t *testing.T) {
	dir := t.TempDir()
	catalog := filepath.Join(dir, "catalog")
	if err := os.Mkdir(catalog, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(catalog)
	tests := []struct{ in, file, name string }{
		{".", filepath.Join(dir, "catalog.Dockerfile"), "catalog"},
		{"../catalog/", filepath.Join("..", "catalog.Dockerfile"), "catalog"},
		{catalog + "/", filepath.Join(dir, "catalog.Dockerfile"), "catalog"},
	}
	for _, tt := range tests {
		file, _, name, err := Dockerfile{CatalogDir: tt.in}.Path()
		if err != nil || file != tt.file || name != tt.name {
			t.Errorf("Path(%q) = %q, %q, %v; want %q, %q", tt.in, file, name, err, tt.file, tt.name)
		}
	}
}

func TestRenderEscapesLabels(t *testing.T) {
	out, err := Dockerfile{BaseImage: "a", BuilderImage: "b", Labels: map[string]string{"k": `say "hi" \o/`}}.Render("c")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `LABEL "k"="say \"hi\" \\o/"`) {
		t.Errorf("label not escaped:\n%s", out)
	}
	if _, err := (Dockerfile{BaseImage: "a", BuilderImage: "scratch"}).Render("c"); err == nil {
		t.Error("scratch builder accepted")
	}
	if _, err := ParseLabels([]string{"novalue"}); err == nil {
		t.Error("label without = accepted")
	}
}

// TestWrite writes the Dockerfile beside the catalog, exactly as Render
// makes it, and never replaces a file or writes for a non-directory.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	catalog := filepath.Join(dir, "my-catalog")
	if err := os.Mkdir(catalog, 0o755); err != nil {
		t.Fatal(err)
	}
	d := Dockerfile{CatalogDir: catalog, BaseImage: DefaultImage, BuilderImage: DefaultImage, Labels: map[string]string{"a": "1"}}
	path, err := d.Write()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "my-catalog.Dockerfile"); path != want {
		t.Errorf("Write wrote %s, want %s", path, want)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := d.Render("my-catalog")
	if string(got) != string(want) {
		t.Errorf("written:\n%s\nrendered:\n%s", got, want)
	}
	for _, line := range []string{"ADD my-catalog /configs", "FROM " + DefaultImage + " as builder", `LABEL "a"="1"`} {
		if !strings.Contains(string(got), line) {
			t.Errorf("the Dockerfile lacks %q:\n%s", line, got)
		}
	}

	// A second Write refuses to replace the file and leaves it as it is.
	if err := os.WriteFile(path, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write(); err == nil || !strings.Contains(err.Error(), "file already exists") {
		t.Errorf("Write over an existing file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "mine\n" {
		t.Errorf("the existing file was changed: %q", b)
	}

	// A file, a missing directory and a bad builder write nothing.
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]Dockerfile{
		"file":    {CatalogDir: file, BaseImage: "a", BuilderImage: "b"},
		"missing": {CatalogDir: filepath.Join(dir, "missing"), BaseImage: "a", BuilderImage: "b"},
		"scratch": {CatalogDir: catalog + "/", BaseImage: "a", BuilderImage: "scratch"},
		"no base": {CatalogDir: filepath.Join(dir, "other"), BuilderImage: "b"},
	} {
		if name == "scratch" {
			os.Remove(path)
		}
		if name == "no base" {
			if err := os.Mkdir(bad.CatalogDir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if p, err := bad.Write(); err == nil {
			t.Errorf("%s: Write succeeded: %s", name, p)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".Dockerfile") {
			t.Errorf("%s was written by a Write that failed", e.Name())
		}
	}
}

func TestRenderScratchAndLabels(t *testing.T) {
	labels, err := ParseLabels([]string{"a=1", "b=x=y", "a=2"})
	if err != nil || labels["a"] != "2" || labels["b"] != "x=y" {
		t.Errorf("ParseLabels = %v, %v; want later keys to win and values to keep '='", labels, err)
	}
	out, err := Dockerfile{BaseImage: "scratch", BuilderImage: "b", Labels: labels}.Render("c")
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if !strings.Contains(s, "FROM scratch\n# OLMv0 CatalogSources that use binary-less images must set:") || strings.Contains(s, "ENTRYPOINT") {
		t.Errorf("a scratch base must get the extractContent note and no entrypoint:\n%s", s)
	}
	if strings.Index(s, `LABEL "a"="2"`) > strings.Index(s, `LABEL "b"="x=y"`) {
		t.Errorf("labels are not sorted:\n%s", s)
	}
	if _, err := (Dockerfile{BaseImage: "a", BuilderImage: "b", Labels: map[string]string{"": "v"}}).Render("c"); err == nil {
		t.Error("an empty label key was accepted")
	}
	if _, err := (Dockerfile{BaseImage: "a"}).Render("c"); err == nil {
		t.Error("an unset builder was accepted")
	}
	if _, _, _, err := (Dockerfile{CatalogDir: "/"}).Path(); err == nil {
		t.Error("the root directory has no parent to build in, but Path accepted it")
	}
}
