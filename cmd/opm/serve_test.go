package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/serve/api"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// syncBuffer is a bytes.Buffer safe for the server's and the test's
// goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServe runs the command as a pod does: it serves gRPC and HTTP until
// it is told to stop (SIGTERM cancels the context), then exits 0.
func TestServe(t *testing.T) {
	checkServes(t, "../../testdata/serve/catalog")
}

// TestServeImage: a catalog image is pulled, its catalog extracted into a
// private directory, served, and the directory removed at the end.
func TestServeImage(t *testing.T) {
	imagetest.IsolateAuth(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	reg := imagetest.Registry(t, "", "")
	imagetest.Push(t, reg+"/serve:v1", imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.DirLayer(t, "../../testdata/serve/catalog", "configs")))
	stderr := checkServes(t, reg+"/serve:v1")
	if !strings.Contains(stderr, "configs="+reg+"/serve:v1/configs") {
		t.Errorf("the log does not name the image:\n%s", stderr)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind in TMPDIR: %v", left)
	}
}

// checkServes serves src, checks its gRPC and HTTP answers, stops it and
// returns its log.
func checkServes(t *testing.T, src string) string {
	t.Helper()
	grpcAddr, httpAddr := freeAddr(t), freeAddr(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var stderr syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"serve", src, "-p", grpcAddr, "--http-addr", httpAddr}, strings.NewReader(""), io.Discard, &stderr)
	}()

	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		resp, err := healthpb.NewHealthClient(conn).Check(cctx, &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true))
		cancel()
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not healthy: %v\n%s", err, stderr.String())
		}
	}
	pkg, err := api.NewRegistryClient(conn).GetPackage(ctx, &api.GetPackageRequest{Name: "foo"})
	if err != nil || pkg.GetDefaultChannelName() != "stable" {
		t.Errorf("GetPackage: %v %v", pkg, err)
	}
	resp, err := http.Get("http://" + httpAddr + "/api/v1/metas?schema=olm.package")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || bytes.Count(body, []byte("\n")) != 5 {
		t.Errorf("HTTP: %d %q", resp.StatusCode, body)
	}

	stop()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code %d after the stop signal", c)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
	for _, want := range []string{`msg="serving registry"`, "addr=" + grpcAddr, "http=" + httpAddr, `msg="shutting down server"`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the log does not say %s:\n%s", want, stderr.String())
		}
	}
	return stderr.String()
}

// TestServeBusyPort checks that a busy address fails before the catalog
// loads (this one is invalid and would fail otherwise), with the address
// and the flag that chooses another.
func TestServeBusyPort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	addr := busy.Addr().String()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.json"), []byte(`{"schema":`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args       []string
		want, flag string
	}{
		{[]string{"-p", addr}, "Error: failed to listen on " + addr + ": ", "choose another address with -p/--port"},
		{[]string{"-p", "127.0.0.1:0", "--http-addr", addr}, "Error: failed to listen for the HTTP API on " + addr + ": ", "choose another address with --http-addr"},
	} {
		var stderr syncBuffer
		code := run(context.Background(), append([]string{"serve", dir, "-t", ""}, tt.args...), strings.NewReader(""), io.Discard, &stderr)
		out := stderr.String()
		if code != 1 || !strings.HasPrefix(out, tt.want) || !strings.Contains(out, tt.flag) || strings.Contains(out, "catalog") {
			t.Errorf("serve %v: exit %d\n%s\nwant exit 1, %q and %q", tt.args, code, out, tt.want, tt.flag)
		}
	}
}
