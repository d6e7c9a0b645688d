package author

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryVerbOutsideRepository: every way into a repository (each
// verb starts with one of them) refuses a directory without operators/
// with the one error naming Repo.Root, before reading anything else; a root that
// is a file is no repository either.
func TestEveryVerbOutsideRepository(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(empty, "elsewhere", "widget", "1.0.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, root := range []string{empty, file, filepath.Join(empty, "missing")} {
		r := &Repo{Root: root}
		for what, err := range map[string]error{
			"Open":          func() error { _, err := r.Open(ctx, "widget"); return err }(),
			"Open bad name": func() error { _, err := r.Open(ctx, "../x"); return err }(),
			"OpenBundleDir": func() error { _, err := r.OpenBundleDir(ctx, "operators/widget/1.0.0"); return err }(),
			"OpenBundleDir !op": func() error {
				_, err := r.OpenBundleDir(ctx, filepath.Join(empty, "elsewhere", "widget", "1.0.0"))
				return err
			}(),
			"Expand": func() error { _, err := r.Expand(ctx, ExpandRequest{}, Options{}); return err }(),
			"Expand one": func() error {
				_, err := r.Expand(ctx, ExpandRequest{Packages: []string{"widget"}}, Options{})
				return err
			}(),
		} {
			if ne, ok := lifts(err, optionRoot); !ok || !strings.HasSuffix(ne.Problem, " is not a catalog repository (it has no operators/ directory)") {
				t.Errorf("%s in %s: %v, want the error naming Repo.Root", what, root, err)
			}
		}
	}
}
