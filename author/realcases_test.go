package author

import (
	"github.com/fbcat/opm/author/textdiff"

	"context"
	"os"
	"path/filepath"
	"testing"
)

// releaseCases lists the real release cases of the conformance data, or
// skips when it is not beside the checkout.
func releaseCases(t *testing.T) []string {
	t.Helper()
	cases, _ := filepath.Glob("../../shared/conformance/releases/*/case.json")
	if len(cases) == 0 {
		t.Skip("no ../shared/conformance/releases")
	}
	var dirs []string
	for _, c := range cases {
		dirs = append(dirs, filepath.Dir(c))
	}
	return dirs
}

// TestRenderCheckReal renders the real repositories before each release:
// every committed catalog is what its template renders, offline.
func TestRenderCheckReal(t *testing.T) {
	for _, dir := range releaseCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			repo := &Repo{Root: filepath.Join(dir, "before")}
			names, err := repo.Model().Packages()
			if err != nil || len(names) != 1 {
				t.Fatalf("packages: %v %v", names, err)
			}
			p, err := repo.Open(context.Background(), names[0])
			if err != nil {
				t.Fatal(err)
			}
			plan, err := p.Expand(context.Background(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range plan.Changes {
				t.Errorf("%s differs from its template", c.Path)
				if os.Getenv("DIFF") != "" {
					old, _ := plan.OldText(c)
					_ = textdiff.Unified(os.Stderr, c.Path, old, c.NewText())
				}
			}
		})
	}
}
