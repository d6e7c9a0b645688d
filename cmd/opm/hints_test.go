package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fbcat/opm/author"
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

// TestNeedWordsNameFlags: every authoring need the library words in its
// own terms is said here with the flag that gives it, in every error of
// a chain.
func TestNeedWordsNameFlags(t *testing.T) {
	n := 0
	for need := author.NeedPull; ; need++ {
		ne := &author.NeedError{Need: need, Problem: "problem", Package: "widget"}
		if ne.Error() == "problem" {
			break // past the last Need
		}
		n++
		if strings.Contains(ne.Error(), "--") {
			t.Errorf("need %d: the library names a flag: %s", need, ne.Error())
		}
		if words := needWords(ne); !strings.Contains(words, "--") {
			t.Errorf("need %d: no flag in %q", need, words)
		}
	}
	if n < 8 {
		t.Errorf("%d needs, want 8 or more", n)
	}
	pull := func(ref string) error {
		return &author.NeedError{Need: author.NeedPull, Problem: "no committed catalog holds " + ref}
	}
	err := fmt.Errorf("rendering: %w", errors.Join(pull("a"), pull("b")))
	got := withFlagHint(err)
	want := "rendering: no committed catalog holds a: pass --pull to render it from its image\nno committed catalog holds b: pass --pull to render it from its image"
	if got.Error() != want || !errors.Is(got, err) {
		t.Errorf("got %q, want %q", got, want)
	}
}
