package suites

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Locate takes $OPM_OSDK's path when it is set, and says when it is no
// executable; else it looks beside the running executable (the test
// binary, which has no opm-osdk beside it), then on $PATH; not found, it
// says where it looked and how to install it.
func TestLocate(t *testing.T) {
	bin := t.TempDir()
	helper := filepath.Join(bin, HelperName)
	if err := os.WriteFile(helper, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(bin, "plain")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvHelper, helper)
	if p, err := Locate(); err != nil || p != helper {
		t.Errorf("$OPM_OSDK: %q, %v", p, err)
	}
	for path, why := range map[string]string{plain: "permission denied", bin: "not a regular file", filepath.Join(bin, "none"): "no such file"} {
		t.Setenv(EnvHelper, path)
		_, err := Locate()
		var nf *NotFoundError
		if !errors.As(err, &nf) || !strings.HasPrefix(err.Error(), "$OPM_OSDK names "+path+", which is not an executable file (") || !strings.Contains(err.Error(), why) {
			t.Errorf("$OPM_OSDK=%s: %v", path, err)
		}
	}
	t.Setenv(EnvHelper, "")
	t.Setenv("PATH", bin)
	if p, err := Locate(); err != nil || p != helper {
		t.Errorf("on $PATH: %q, %v", p, err)
	}
	t.Setenv("PATH", t.TempDir())
	exe, _ := os.Executable()
	_, err := Locate()
	want := "opm-osdk, which runs operator-sdk's suites for opm, is not installed: $OPM_OSDK is not set, and it is not in " + filepath.Dir(exe) +
		" (beside opm) nor on $PATH (make build writes it beside bin/opm; go install github.com/fbcat/opm/cmd/opm-osdk@VERSION installs it beside an opm installed so, at the same version)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if (&NotFoundError{}).Error() != strings.Replace(want, "in "+filepath.Dir(exe)+" (beside opm) nor on", "on", 1) {
		t.Errorf("without the executable's directory: %v", &NotFoundError{})
	}
}

// startTestHelper starts the test binary as a helper of the mode given
// (see helperModes).
func startTestHelper(t *testing.T, ctx context.Context, mode string) (*Client, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("SUITES_TEST_HELPER", mode)
	t.Setenv(EnvHelper, exe)
	return Start(ctx)
}

// A helper started as opm-osdk answers, and ends well when closed.
func TestStart(t *testing.T) {
	c, err := startTestHelper(t, context.Background(), "serve")
	if err != nil {
		t.Fatal(err)
	}
	files := readDir(t, oddBundle(t))
	r, err := c.Validate(&Bundle{Dir: "d", Files: files, KubernetesVersion: "1.30"})
	if err != nil || r.Default[0].Message != "d 1.30\n"+describe(files) {
		t.Errorf("got %+v, %v", r, err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

// A helper that dies fails the request with its exit status and what it
// said on its standard error.
func TestHelperDies(t *testing.T) {
	c, err := startTestHelper(t, context.Background(), "crash")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Validate(&Bundle{Dir: "d", Files: readDir(t, oddBundle(t))})
	exe, _ := os.Executable()
	if want := exe + " stopped: exit status 3, saying:\nboom: the helper fell over"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if err := c.Close(); err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("close: %v", err)
	}
}

// The end of the context kills a helper that does not answer.
func TestHelperCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c, err := startTestHelper(t, ctx, "mute")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		cancel()
	}()
	if _, err := c.Validate(&Bundle{Dir: "d", Files: readDir(t, oddBundle(t))}); err == nil || !strings.Contains(err.Error(), "stopped: signal: killed") {
		t.Errorf("got %v", err)
	}
	_ = c.Close()
}

// A helper that cannot be started says so.
func TestStartFails(t *testing.T) {
	t.Setenv(EnvHelper, filepath.Join(t.TempDir(), "none"))
	if _, err := Start(context.Background()); err == nil {
		t.Error("started what is not there")
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, HelperName)
	if err := os.WriteFile(bad, []byte("\x7fELF not really"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := StartAt(context.Background(), bad); err == nil || !strings.HasPrefix(err.Error(), "starting opm-osdk: ") {
		t.Errorf("got %v", err)
	}
}

// tail keeps the end of what it is written.
func TestTail(t *testing.T) {
	var tl tail
	_, _ = tl.Write([]byte(strings.Repeat("a", tailSize)))
	_, _ = tl.Write([]byte("  the end\n"))
	if s := tl.String(); len(s) > tailSize || !strings.HasSuffix(s, "a  the end") {
		t.Errorf("kept %d bytes ending %q", len(s), s[len(s)-12:])
	}
}
