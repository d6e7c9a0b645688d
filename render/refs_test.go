package render

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"text/template"

	"github.com/fbcat/opm/declcfg"
)

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{
		CatalogDir: "catalog directory", BundleDir: "bundle directory",
		CatalogImage: "catalog image", BundleImage: "bundle image",
		CatalogDir | BundleDir: "reference", 0: "reference",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d) = %q, want %q", int(k), got, want)
		}
	}
}

func TestIsBundleDir(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"both/manifests", "both/metadata", "manifestsonly/manifests", "linked/metadata", "real"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "filemeta"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "linked", "manifests")); err != nil && runtime.GOOS != "windows" {
		t.Fatal(err)
	}
	for sub, want := range map[string]bool{"both": true, "manifestsonly": false, "linked": false, "missing": false, "filemeta": false} {
		if got := IsBundleDir(filepath.Join(dir, sub)); got != want {
			t.Errorf("IsBundleDir(%s) = %v, want %v", sub, got, want)
		}
	}
}

func TestRenderReferenceErrors(t *testing.T) {
	bundleDir := t.TempDir()
	for _, d := range []string{"manifests", "metadata"} {
		if err := os.Mkdir(filepath.Join(bundleDir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pelorus := "../testdata/bundles/pelorus-operator_0.0.2"
	badTemplate := template.Must(template.New("").Parse("{{.Nope}}"))
	for _, tc := range []struct {
		name, ref string
		r         *Renderer
		want      string
	}{
		{"not a reference", "Not A Ref", &Renderer{}, `no such file or directory: "Not A Ref" (nor an image reference: `},
		{"path through a file", "../testdata/catalog.golden.json/x", &Renderer{}, "not a directory"},
		{"missing oci layout", "oci:" + filepath.Join(bundleDir, "nolayout"), &Renderer{}, "nolayout"},
		{"bundle dir without a CSV", bundleDir, &Renderer{}, "bundle directory " + bundleDir + ": "},
		{"bundle dir not allowed", pelorus, &Renderer{Allowed: CatalogDir}, `cannot render bundle directory "` + pelorus + `": not allowed`},
		{"image template fails", pelorus, &Renderer{ImageRefTemplate: badTemplate}, `failed templating image reference from bundle for "` + pelorus + `"`},
	} {
		_, err := tc.r.Run(context.Background(), tc.ref)
		if err == nil || !strings.HasPrefix(err.Error(), `render reference "`+tc.ref+`": `) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestRenderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&Renderer{}).Run(ctx, "../testdata/catalog", "../testdata/catalog"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled render: %v", err)
	}
}

// TestRenderStreamsEverySchema: deprecations and objects of other
// schemas come out of a streamed render as out of an in-memory one.
func TestRenderStreamsEverySchema(t *testing.T) {
	dir := t.TempDir()
	catalog := `{"schema":"olm.package","name":"x","defaultChannel":"stable"}
{"schema":"olm.channel","package":"x","name":"stable","entries":[{"name":"x.v1"}]}
{"schema":"olm.bundle","package":"x","name":"x.v1","image":"example.com/x:1","properties":[{"type":"olm.package","value":{"packageName":"x","version":"1.0.0"}}]}
{"schema":"olm.deprecations","package":"x","entries":[{"reference":{"schema":"olm.bundle","name":"x.v1"},"message":"old"}]}
{"schema":"example.com/custom","package":"x","note":"kept"}
`
	if err := os.WriteFile(filepath.Join(dir, "catalog.json"), []byte(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
	streamed := mustRender(t, &Renderer{}, dir)
	cfg, err := (&Renderer{}).Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var inMemory bytes.Buffer
	if err := declcfg.Write(cfg, &inMemory, declcfg.FormatJSON); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(streamed, inMemory.Bytes()) {
		t.Errorf("streamed:\n%s\nin memory:\n%s", streamed, inMemory.Bytes())
	}
	for _, want := range []string{`"schema": "olm.deprecations"`, `"message": "old"`, `"schema": "example.com/custom"`, `"note": "kept"`} {
		if !bytes.Contains(streamed, []byte(want)) {
			t.Errorf("render lacks %s:\n%s", want, streamed)
		}
	}
}
