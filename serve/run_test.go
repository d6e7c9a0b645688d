package serve

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWriteTerminationLog(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	WriteTerminationLog(missing, false, io.ErrUnexpectedEOF)
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Error("the default termination log was created")
	}
	explicit := filepath.Join(dir, "explicit")
	WriteTerminationLog(explicit, true, io.ErrUnexpectedEOF)
	if data, _ := os.ReadFile(explicit); string(data) != "unexpected EOF\n" {
		t.Errorf("explicit: %q", data)
	}
	// An existing file is replaced, and a long report is cut to what
	// Kubernetes keeps.
	WriteTerminationLog(explicit, false, errString(strings.Repeat("x", 10000)))
	data, _ := os.ReadFile(explicit)
	if len(data) > terminationLogLimit+1 || !strings.HasSuffix(string(data), "(the whole report is in the container log)\n") {
		t.Errorf("long: %d bytes, ends %q", len(data), data[max(0, len(data)-60):])
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// writeCatalog writes a valid catalog of one package into a new
// directory.
func writeCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "foo.json"), []byte(fooPackage+fooChannel+fooBundle("")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRunCacheOnly: with CacheOnly the catalog is loaded and checked,
// the cache directory made, and nothing served.
func TestRunCacheOnly(t *testing.T) {
	dir := writeCatalog(t)
	cache := filepath.Join(t.TempDir(), "cache")
	if err := Run(context.Background(), RunOptions{Source: dir, CacheOnly: true, CacheDir: cache, Addr: "127.0.0.1:1"}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(cache); err != nil || !st.IsDir() {
		t.Errorf("the cache directory was not made: %v", err)
	}
	err := Run(context.Background(), RunOptions{Source: dir, CacheOnly: true, CacheIntegrity: true})
	if err == nil || err.Error() != "RunOptions.CacheDir must be specified with RunOptions.CacheIntegrity" {
		t.Errorf("integrity without a cache directory: %v", err)
	}
}

// TestRunRefusesSources: serve takes a catalog directory or a catalog
// image, and says so for anything else.
func TestRunRefusesSources(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	bundle := t.TempDir()
	for _, d := range []string{"manifests", "metadata"} {
		if err := os.Mkdir(filepath.Join(bundle, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for src, want := range map[string]string{
		filepath.Join(t.TempDir(), "none"): "no such catalog directory",
		file:                               "is not a directory: serve takes a file-based catalog directory",
		bundle:                             "is a registry+v1 bundle directory",
	} {
		if err := Run(context.Background(), RunOptions{Source: src, CacheOnly: true}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}

// TestRunServesUntilCancelled: Run serves the catalog on both APIs and
// returns nil once its context ends.
func TestRunServesUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var log strings.Builder
	var mu sync.Mutex
	go func() {
		done <- Run(ctx, RunOptions{Source: writeCatalog(t), Addr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0",
			Log: slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil))})
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		serving := strings.Contains(log.String(), "serving registry")
		mu.Unlock()
		if serving {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("not serving")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestListenErrors: an address that cannot be listened on names the
// option that chooses another, and a busy one an example.
func TestListenErrors(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, _, err = RunOptions{Addr: busy.Addr().String()}.listen()
	if err == nil || !strings.Contains(err.Error(), "another process (a second opm serve?) is using it: stop it or choose another address with RunOptions.Addr") {
		t.Errorf("busy: %v", err)
	}
	_, _, err = RunOptions{Addr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:99999"}.listen()
	if err == nil || !strings.Contains(err.Error(), "failed to listen for the HTTP API on 127.0.0.1:99999") || !strings.HasSuffix(err.Error(), "choose another address with RunOptions.HTTPAddr") {
		t.Errorf("bad port: %v", err)
	}
	if nextPort("127.0.0.1:50051") != "127.0.0.1:50052" || nextPort("x") != "" || listenAddr("50051") != ":50051" {
		t.Error("nextPort, listenAddr")
	}
}
