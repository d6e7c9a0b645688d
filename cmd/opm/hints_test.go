package main

import (
	"strings"
	"testing"
)

// TestLocalStoreHintNamesInstalledTools: the hint for an image missing
// from a registry on localhost names only container tools that are
// installed, and points an old base-image name at make base-image's
// archive.
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
		if !strings.Contains(hint, "oci-archive:bin/opm-base.oci.tar") {
			t.Errorf("no pointer to make base-image's archive: %s", hint)
		}
	}
	if hint := localStoreHint("localhost/other:v1", func(string) bool { return false }); strings.Contains(hint, "base-image") {
		t.Errorf("the base-image pointer for another image: %s", hint)
	}
}
