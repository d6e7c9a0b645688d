package render

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

func TestRenderCatalogDir(t *testing.T) {
	var r Renderer
	w := declcfg.NewOrderedWriter(declcfg.FormatJSON)
	defer w.Close()
	if err := r.RenderTo(context.Background(), w, "../testdata/catalog"); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if _, err := w.WriteTo(&got); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile("../testdata/catalog.golden.json")
	if !bytes.Equal(got.Bytes(), want) {
		t.Error("streamed render differs from upstream's golden")
	}
	cfg, err := r.Run(context.Background(), "../testdata/catalog")
	if err != nil {
		t.Fatal(err)
	}
	got.Reset()
	if err := declcfg.Write(cfg, &got, declcfg.FormatJSON); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Error("in-memory render differs from upstream's golden")
	}
}

func TestRenderReferences(t *testing.T) {
	tests := []struct {
		ref  string
		want string
	}{
		{"../testdata/nope", "no such file or directory"},
		{"../testdata/catalog.golden.json", "is a file"},
	}
	for _, tt := range tests {
		_, err := (&Renderer{}).Run(context.Background(), tt.ref)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.ref, err, tt.want)
		}
	}
	_, err := (&Renderer{Allowed: BundleDir}).Run(context.Background(), "../testdata/catalog")
	if !errors.Is(err, ErrNotAllowed) {
		t.Errorf("catalog directory where only bundles are allowed: %v", err)
	}
}

func TestMigrationLevels(t *testing.T) {
	for _, l := range []string{"", "none", "all", "bundle-object-to-csv-metadata"} {
		if _, err := MigrationsFor(l); err != nil {
			t.Errorf("%q: %v", l, err)
		}
	}
	if _, err := MigrationsFor("bogus"); err == nil {
		t.Error("unknown level accepted")
	}
}

func BenchmarkRender(b *testing.B) {
	benchmarkRender(b, declcfgtest.BenchmarkCatalog(b), declcfg.FormatJSON)
}

// BenchmarkRenderLarge* render the large synthetic catalog as the render
// command does.
func BenchmarkRenderLargeJSON(b *testing.B) {
	benchmarkRender(b, declcfgtest.BenchmarkLargeCatalog(b), declcfg.FormatJSON)
}

func BenchmarkRenderLargeYAML(b *testing.B) {
	benchmarkRender(b, declcfgtest.BenchmarkLargeCatalog(b), declcfg.FormatYAML)
}

// BenchmarkRenderReal* render the catalog $OPM_BENCH_CATALOG names.
func BenchmarkRenderRealJSON(b *testing.B) {
	benchmarkRender(b, declcfgtest.RealCatalog(b), declcfg.FormatJSON)
}

func BenchmarkRenderRealYAML(b *testing.B) {
	benchmarkRender(b, declcfgtest.RealCatalog(b), declcfg.FormatYAML)
}

func benchmarkRender(b *testing.B, dir string, f declcfg.Format) {
	for b.Loop() {
		w := declcfg.NewOrderedWriter(f)
		if err := (&Renderer{}).RenderTo(context.Background(), w, dir); err != nil {
			b.Fatal(err)
		}
		if _, err := w.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
		w.Close()
	}
}

// TestRenderBundleDirs checks bundle directories against upstream's
// output, plain and with an image reference template and the CSV metadata
// migration.
func TestRenderBundleDirs(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/bundles/*")
	if len(dirs) == 0 {
		t.Fatal("no bundles in ../testdata/bundles")
	}
	csvmeta, err := MigrationsFor("bundle-object-to-csv-metadata")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("").Parse("quay.io/example/{{.Package}}-bundle:v{{.Version}}"))
	for _, dir := range dirs {
		name := filepath.Base(dir)
		for golden, r := range map[string]*Renderer{
			"../testdata/bundles.golden/" + name + ".json":         {},
			"../testdata/bundles.golden-csvmeta/" + name + ".json": {ImageRefTemplate: tmpl, Migrations: csvmeta},
		} {
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := r.Run(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := declcfg.Write(cfg, &got, declcfg.FormatJSON); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s: render differs from upstream's %s", dir, golden)
			}
		}
	}
}

// BenchmarkRenderBundleDirs renders the testdata bundle directories in
// one call.
func BenchmarkRenderBundleDirs(b *testing.B) {
	dirs, _ := filepath.Glob("../testdata/bundles/*")
	for b.Loop() {
		if _, err := (&Renderer{}).Run(context.Background(), dirs...); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRunBytes checks that a rendered stream renders to what the
// directory it came from renders to, and that problems name the stream.
func TestRunBytes(t *testing.T) {
	var r Renderer
	ctx := context.Background()
	dir, err := r.Run(ctx, "../testdata/catalog")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile("../testdata/catalog.golden.json")
	stream, err := r.RunBytes(ctx, StdinName, data)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := declcfg.Write(dir, &a, declcfg.FormatJSON); err != nil {
		t.Fatal(err)
	}
	if err := declcfg.Write(stream, &b, declcfg.FormatJSON); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the rendered stream differs from its directory")
	}
	if _, err := r.RunBytes(ctx, StdinName, []byte("schema: olm.package\nname: [\n")); err == nil || !strings.HasPrefix(err.Error(), "<stdin>:") {
		t.Errorf("bad stream: %v", err)
	}
	for name, want := range map[string]string{"http://host/all.json": "http:/host/all.json", "/abs/x": "abs/x", "..": "stream", "": "stream"} {
		_, err := r.RunBytes(ctx, name, []byte("schema: olm.package\nname: [\n"))
		if err == nil || !strings.HasPrefix(err.Error(), want+":") {
			t.Errorf("stream %q: %v, want an error at %s", name, err, want)
		}
	}
}
