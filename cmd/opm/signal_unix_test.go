//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func makeFIFO(path string) error { return syscall.Mkfifo(path, 0o600) }

// opmCommand runs opm in a process of its own: testscript.Main puts a
// copy of the test binary that runs Main as "opm" on $PATH.
func opmCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	opm, err := exec.LookPath("opm")
	if err != nil {
		t.Fatal(err)
	}
	return exec.Command(opm, args...)
}

// TestSignalEndsBlockedCommand sends SIGTERM and SIGINT to opm processes
// blocked in a read that nothing interrupts (init reading its description
// from a named pipe that a writer holds open and never writes to): they
// must end with the exit code a shell reports for the signal, and say
// only that they were interrupted.
func TestSignalEndsBlockedCommand(t *testing.T) {
	tests := []struct {
		sig  syscall.Signal
		code int
		says string
	}{
		{syscall.SIGTERM, 143, "opm: interrupted by SIGTERM before it finished\n"},
		{syscall.SIGINT, 130, "opm: interrupted by SIGINT before it finished\n"},
	}
	for _, tt := range tests {
		t.Run(tt.sig.String(), func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "description")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("cannot make a named pipe:", err)
			}
			stdout, stderr := interruptBlocked(t, fifo, tt.sig, tt.code, "init", "foo", "--description", fifo)
			if stdout != "" || stderr != tt.says {
				t.Errorf("stdout %q, stderr %q, want stderr %q", stdout, stderr, tt.says)
			}
		})
	}
}

// TestSignalCatalogVerbBeforeWriting interrupts a catalog verb before it
// writes anything (blocked reading a template that is a named pipe): it
// exits 130 saying that nothing was written, and nothing was.
func TestSignalCatalogVerbBeforeWriting(t *testing.T) {
	root := testRepo(t)
	template := filepath.Join(root, "operators/widget/catalog-templates/basic.yaml")
	catalog := filepath.Join(root, "catalogs/v4.16/widget/catalog.yaml")
	before, err := os.ReadFile(catalog)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(template)
	if err := syscall.Mkfifo(template, 0o600); err != nil {
		t.Skip("cannot make a named pipe:", err)
	}
	stdout, stderr := interruptBlocked(t, template, syscall.SIGINT, 130,
		"alpha", "catalog", "promote", "widget", "widget-operator.v1.1.1", "--to", "stable", "--root", root)
	if want := "opm: interrupted by SIGINT: nothing was written; the repository is as it was\n"; stdout != "" || stderr != want {
		t.Errorf("stdout %q, stderr %q, want stderr %q", stdout, stderr, want)
	}
	if after, err := os.ReadFile(catalog); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the catalog changed (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(root, ".opm-staging")); err == nil {
		t.Error("a staging directory is left")
	}
}

// interruptBlocked runs opm with args until it blocks reading the named
// pipe fifo, sends it sig and checks that it exits (not killed) with
// code; it returns what opm wrote.
func interruptBlocked(t *testing.T, fifo string, sig syscall.Signal, code int, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := opmCommand(t, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	// Once opm has opened the pipe for reading, a writer can open it;
	// opm then waits in a read.
	var w *os.File
	for w == nil {
		select {
		case err := <-exited:
			t.Fatalf("opm ended before reading the pipe: %v\n%s", err, errOut.String())
		default:
		}
		fd, err := syscall.Open(fifo, syscall.O_WRONLY|syscall.O_NONBLOCK, 0)
		switch {
		case err == nil:
			w = os.NewFile(uintptr(fd), fifo)
		case errors.Is(err, syscall.ENXIO): // no reader yet
			time.Sleep(10 * time.Millisecond)
		default:
			t.Fatal(err)
		}
	}
	defer w.Close()

	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("opm did not end after %v", sig)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("opm was killed by %v instead of exiting", ws.Signal())
	}
	if got := cmd.ProcessState.ExitCode(); got != code {
		t.Errorf("exit code %d, want %d", got, code)
	}
	return out.String(), errOut.String()
}

// TestSignalStopsServeGracefully checks that, for serve, SIGTERM stays a
// request to stop: the server shuts down and exits 0.
func TestSignalStopsServeGracefully(t *testing.T) {
	cmd := opmCommand(t, "serve", "../../testdata/serve/catalog", "-p", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	var log strings.Builder
	lines := bufio.NewScanner(stderr)
	for !strings.Contains(log.String(), `msg="serving registry"`) {
		if !lines.Scan() {
			t.Fatalf("serve ended before serving:\n%s", log.String())
		}
		log.WriteString(lines.Text() + "\n")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), `msg="shutting down server"`) {
		t.Errorf("the log does not say it shut down:\n%s", log.String())
	}
}
