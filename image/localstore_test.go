package image

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocalStoreHintNamesInstalledTools: the hint for an image missing
// from a registry on localhost names only container tools that are
// installed.
func TestLocalStoreHintNamesInstalledTools(t *testing.T) {
	tools := []string{"podman", "docker", "buildah"}
	for _, have := range append(tools, "") {
		hint := localStoreHint("localhost/opm-base:latest", func(tool string) bool { return tool == have })
		for _, tool := range tools {
			// (docker-archive: is a transport of opm's, not the tool)
			if tool != have && strings.Contains(strings.ReplaceAll(hint, "docker-archive:", ""), tool) {
				t.Errorf("with only %q installed the hint names %s: %s", have, tool, hint)
			}
		}
		if have != "" && !strings.Contains(hint, have+" ") {
			t.Errorf("with %s installed the hint does not use it: %s", have, hint)
		}
	}
	for registry, want := range map[string]bool{"localhost": true, "LOCALHOST:5000": true, "quay.io": false, "localhost.example:1": false} {
		if isLocalhost(registry) != want {
			t.Errorf("isLocalhost(%q) = %v", registry, !want)
		}
	}
}

// TestFromEnv: the environment's layer cache, and no progress line but
// on a terminal.
func TestFromEnv(t *testing.T) {
	t.Setenv("OLM_CACHE_DIR", "/cache")
	o := FromEnv(true, nil, io.Discard)
	if !o.Insecure || o.CacheDir != filepath.Join("/cache", "opm-layers") || o.Progress != nil || o.Transport == nil {
		t.Errorf("%+v", o)
	}
}
