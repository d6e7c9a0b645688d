package serve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/fbcat/opm/serve/api"
	"github.com/fbcat/opm/validate"
)

const (
	fooPackage = `{"schema":"olm.package","name":"foo","defaultChannel":"stable"}` + "\n"
	fooChannel = `{"schema":"olm.channel","name":"stable","package":"foo","entries":[{"name":"foo.v1"}]}` + "\n"
)

func fooBundle(extra string) string {
	return `{"schema":"olm.bundle","name":"foo.v1","package":"foo","image":"quay.io/foo/bundle:v1","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}}` + extra + `]}` + "\n"
}

// A catalog with problems is refused with every problem, as validate
// reports them, and with what only serving refuses.
func TestLoadRefusesInvalidCatalogs(t *testing.T) {
	meta := `,{"type":"olm.csv.metadata","value":{"displayName":"Foo"}}`
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"validation", map[string]string{
			"foo/a.json": fooPackage + `{"schema":"olm.channel","name":"stable","package":"foo","entries":[{"name":"foo.v1"},{"name":"foo.v2","replaces":"foo.v1"}]}` + "\n" + fooBundle(""),
		}, []string{`c/foo/a.json:2: channel "stable" (package "foo"): entry "foo.v2" has no olm.bundle blob`}},
		{"custom schema names", map[string]string{
			"foo/a.json": fooPackage + fooChannel + fooBundle(""),
			"x.json":     `{"schema":"example.com/widget","name":"w"}` + "\n" + `{"schema":"widget","package":"a/b"}`,
		}, []string{
			`c/x.json:1: cannot serve a blob whose schema is "example.com/widget"`,
			`c/x.json:2: package "a/b": cannot serve a blob whose package is "a/b"`,
		}},
		{"two csv metadata", map[string]string{
			"foo/a.json": fooPackage + fooChannel + fooBundle(meta+meta),
		}, []string{`c/foo/a.json:3: bundle "foo.v1" (package "foo"): expected at most 1 property of type "olm.csv.metadata", found 2`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, data := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			_, err := Load(context.Background(), fsys, LoadOptions{Name: "c", Blobs: true})
			var invalid *validate.InvalidError
			if !errors.As(err, &invalid) {
				t.Fatalf("got %v, want an InvalidError", err)
			}
			if len(invalid.Problems) != len(tt.want) {
				t.Errorf("%d problems, want %d:\n%v", len(invalid.Problems), len(tt.want), err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the report does not say %q:\n%v", w, err)
				}
			}
		})
	}
}

// Shutdown reports NOT_SERVING to watchers, lets calls in flight finish
// and then refuses new ones.
func TestShutdown(t *testing.T) {
	cat, err := Load(context.Background(), os.DirFS(testCatalog), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l, dialer := bufListener()
	srv := NewServer(cat, ServerOptions{})
	served := make(chan error, 1)
	go func() { served <- srv.ServeGRPC(l) }()
	conn := clientConn(t, dialer)
	health := healthpb.NewHealthClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	watch, err := health.Watch(ctx, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := watch.Recv(); err != nil || st.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("watch: %v %v", st, err)
	}
	// A stream in flight when the shutdown starts still completes.
	list, err := api.NewRegistryClient(conn).ListBundles(ctx, &api.ListBundlesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	first, err := list.Recv()
	if err != nil {
		t.Fatal(err)
	}
	stopped := make(chan struct{})
	go func() {
		srv.Shutdown(ctx)
		close(stopped)
	}()
	if st, err := watch.Recv(); err != nil || st.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("watch during shutdown: %v %v", st, err)
	}
	n := 1
	for ; ; n++ {
		if _, err := list.Recv(); err != nil {
			break
		}
	}
	if n != 13 || first.GetCsvName() == "" {
		t.Errorf("the stream in flight got %d bundles, want 13", n)
	}
	select {
	case <-stopped:
	case <-ctx.Done():
		t.Fatal("shutdown did not finish")
	}
	if err := <-served; err != nil {
		t.Errorf("ServeGRPC: %v", err)
	}
	if _, err := health.Check(ctx, &healthpb.HealthCheckRequest{}); err == nil {
		t.Error("the stopped server still answers")
	}
}

// A bundle whose file changed after loading is not answered with
// something else.
func TestChangedCatalog(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "foo.json")
	if err := os.WriteFile(file, []byte(fooPackage+fooChannel+fooBundle("")), 0o644); err != nil {
		t.Fatal(err)
	}
	conn, _ := dial(t, dir, LoadOptions{})
	client := api.NewRegistryClient(conn)
	req := &api.GetBundleInChannelRequest{PkgName: "foo", ChannelName: "stable"}
	//lint:ignore SA1019 deprecated in the API, but OLM still calls it
	if _, err := client.GetBundleForChannel(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(fooPackage+fooChannel+fooBundle(""), `"name":"foo.v1","package"`, `"name":"foo.v9","package"`, 1)
	if err := os.WriteFile(file, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 deprecated in the API, but OLM still calls it
	_, err := client.GetBundleForChannel(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "did the catalog change") {
		t.Errorf("got %v", err)
	}
}
