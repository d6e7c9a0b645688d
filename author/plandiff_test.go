package author

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/author/textdiff"
)

// TestReadableDiffRealReleases releases each real case of the conformance
// data with --dry-run: no line over 300 characters.
func TestReadableDiffRealReleases(t *testing.T) {
	for _, dir := range releaseCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			if err := os.CopyFS(root, os.DirFS(filepath.Join(dir, "before"))); err != nil {
				t.Fatal(err)
			}
			c := readCase(t, dir)
			bdir := filepath.Join(root, "operators", c.Package, c.Version)
			if err := os.CopyFS(bdir, os.DirFS(filepath.Join(dir, "bundle"))); err != nil {
				t.Fatal(err)
			}
			r := &Repo{Root: root}
			plan, err := release(context.Background(), r, ReleaseRequest{BundleDir: bdir, Image: c.Image}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := plan.ReadableDiff(&out, ""); err != nil {
				t.Fatal(err)
			}
			if n := longest(out.String()); n > textdiff.MaxLine {
				t.Errorf("a line of %d characters", n)
			}
		})
	}
}

// longest is the length of the longest line of text.
func longest(text string) int {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		n = max(n, len(l))
	}
	return n
}

// releaseCase is what a real release case's case.json says.
type releaseCase struct {
	Package, Version, Image string
}

func readCase(t *testing.T, dir string) releaseCase {
	t.Helper()
	var c releaseCase
	data, err := os.ReadFile(filepath.Join(dir, "case.json"))
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}
