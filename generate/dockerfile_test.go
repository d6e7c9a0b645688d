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
