package catalogimage

import (
	"os"
	"strings"
	"testing"
)

// TestClassifyOpm: the test binary itself is a Go binary of this module
// (ours: the Dockerfile's command); a file without Go build information
// gets the command every opm accepts, with a warning.
func TestClassifyOpm(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if got := classifyOpm(data); strings.Join(got.cmd, " ") != "serve /configs --cache-dir=/tmp/cache" || got.warning != "" || got.writableCache {
		t.Errorf("our binary: %+v", got)
	}
	got := classifyOpm([]byte("#!/bin/sh\nexec /usr/local/bin/opm \"$@\"\n"))
	if strings.Join(got.cmd, " ") != "serve /configs --cache-dir=/tmp/cache --cache-enforce-integrity=false" || !strings.Contains(got.warning, "cannot tell which opm") || !got.writableCache {
		t.Errorf("a script: %+v", got)
	}
}
