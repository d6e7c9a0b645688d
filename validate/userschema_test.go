package validate

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestUserSchemas(t *testing.T) {
	dir := t.TempDir()
	schema := `package custom

#Widget: {
	schema: "example.com.widget"
	name!: string & =~"^[a-z]+$"
	spec: size: int & >0
	...
}
`
	if err := os.WriteFile(filepath.Join(dir, "widget.cue"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	user, err := LoadUserSchemas([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := user.Schemas(); !slices.Equal(got, []string{"example.com.widget"}) {
		t.Errorf("Schemas() = %v", got)
	}
	res := run(t, map[string]string{
		"foo/index.json": goodPackage,
		"w.yaml":         "schema: example.com.widget\nname: Bad-Name\nspec:\n  size: 0\n---\nschema: example.com.widget\nname: good\nspec:\n  size: 3\n",
	}, func(o *Options) { o.Schemas = user })
	var got []string
	for _, p := range res.Problems {
		got = append(got, p.Error())
	}
	if len(got) != 2 || !strings.Contains(got[0], "cat/w.yaml:2") || !strings.Contains(got[0], "name") || !strings.Contains(got[1], "cat/w.yaml:4") || !strings.Contains(got[1], "spec.size") {
		t.Errorf("problems:\n%s", strings.Join(got, "\n"))
	}
	if _, err := LoadUserSchemas([]string{filepath.Join(dir, "missing.cue")}); err == nil {
		t.Error("missing schema file accepted")
	}
	noDefs := filepath.Join(t.TempDir(), "x.cue")
	os.WriteFile(noDefs, []byte("a: 1\n"), 0o644)
	if _, err := LoadUserSchemas([]string{noDefs}); err == nil || !strings.Contains(err.Error(), "no definition") {
		t.Errorf("schema file without definitions: %v", err)
	}
}

// TestUserSchemasOffline loads schema files that lie in a CUE module with
// dependencies. A registry on loopback stands where CUE would fetch them
// from: it must never be asked.
func TestUserSchemasOffline(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.Method+" "+r.URL.Path)
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer srv.Close()
	t.Setenv("CUE_REGISTRY", strings.TrimPrefix(srv.URL, "http://")+"+insecure")
	t.Setenv("CUE_CACHE_DIR", t.TempDir())
	t.Setenv("CUE_CONFIG_DIR", t.TempDir())

	const module = `module: "example.com/schemas@v0"
language: version: "v0.9.0"
deps: "example.com/dep@v0": v: "v0.1.0"
`
	const common = "package common\n\n#Name: =~\"^[a-z]+$\"\n"
	widget := func(imports, name string) string {
		return "package widgets\n\n" + imports + "\n#Widget: {\n\tschema: \"example.com.widget\"\n\tname: " + name + "\n\t...\n}\n"
	}
	tests := []struct {
		name   string
		schema string
		want   string // in the error; "" for none
	}{
		{"Success/no imports", widget("", `=~"^[a-z]+$"`), ""},
		{"Success/standard library and own module", widget(`import ("strings", "example.com/schemas/common")`, `common.#Name & strings.MinRunes(1)`), ""},
		{"Error/dependency", widget(`import "example.com/dep"`, "dep.#Name"), `w.cue:3:8: import failed: cannot find package "example.com/dep"`},
		{"Error/other module", widget(`import "example.org/other"`, "other.#Name"), `w.cue:3:8: import failed: cannot find package "example.org/other"`},
		{"Error/syntax", "package widgets\n\n#Widget: {\n", "w.cue:3:12: expected '}', found 'EOF'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"cue.mod/module.cue": module,
				"common/common.cue":  common,
				"schemas/w.cue":      tt.schema,
			}
			for name, data := range files {
				path := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			schemaDir := filepath.Join(dir, "schemas")
			user, err := LoadUserSchemas([]string{schemaDir})
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("LoadUserSchemas: %v", err)
			case tt.want == "" && !slices.Equal(user.Schemas(), []string{"example.com.widget"}):
				t.Errorf("Schemas() = %v", user.Schemas())
			case tt.want != "" && err == nil:
				t.Fatalf("LoadUserSchemas succeeded, want %q", tt.want)
			case tt.want != "" && !strings.HasPrefix(err.Error(), "Options.Schemas: "+filepath.Join(schemaDir, tt.want)):
				t.Errorf("error %q, want it to start with %q", err, filepath.Join(schemaDir, tt.want))
			}
			if tt.name == "Error/dependency" && !strings.Contains(err.Error(), "never downloaded") {
				t.Errorf("error %q does not say that modules are not downloaded", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(asked) > 0 {
				t.Errorf("the registry was asked for %v", asked)
				asked = nil
			}
		})
	}
}
