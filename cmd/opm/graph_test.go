package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderGraphLeavesNoFiles checks that render-graph removes what it
// extracts from images, whether it succeeds or fails (upstream leaves
// its image cache directory behind every time).
func TestRenderGraphLeavesNoFiles(t *testing.T) {
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := pushTestImages(t, testdata)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("OLM_CACHE_DIR", "")
	for _, c := range []struct {
		args     []string
		wantCode int
	}{
		{[]string{reg + "/catalog:v1", "--draw-v0-semantics"}, 0},
		{[]string{reg + "/catalog:v1", "--minimum-edge", "nope"}, 1},
		{[]string{reg + "/catalog:v1", reg + "/bundles/pelorus-operator:v0.0.2"}, 1},
		{[]string{reg + "/catalog:v1", reg + "/missing:v1"}, 1},
	} {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"alpha", "render-graph"}, c.args...), nil, &stdout, &stderr)
			if code != c.wantCode {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", code, c.wantCode, stderr.String())
			}
			if code != 0 && stdout.Len() > 0 {
				t.Errorf("failed, yet wrote on stdout:\n%s", stdout.String())
			}
			left, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range left {
				t.Errorf("left behind in TMPDIR: %s", e.Name())
			}
		})
	}
}
