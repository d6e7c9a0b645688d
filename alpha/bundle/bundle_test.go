package bundle_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/fbcat/opm/alpha/bundle"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/render"
)

// write makes files (name -> content) under dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func csv(name, replaces string, skips ...string) string {
	s := "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: " + name + "\nspec:\n  version: 1.0.0\n"
	if replaces != "" {
		s += "  replaces: " + replaces + "\n"
	}
	if len(skips) > 0 {
		s += "  skips: [" + strings.Join(skips, ", ") + "]\n"
	}
	return s
}

func TestMediaType(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"csv/x.yaml":              csv("x", ""),
		"csv/cm.yaml":             "kind: ConfigMap\n",
		"json/x.json":             `{"kind": "ClusterServiceVersion", "metadata": {"name": "x"}}`,
		"plain/cm.yaml":           "kind: ConfigMap\n",
		"plain/notes.txt":         "hello",
		"helm/Chart.yaml":         "name: chart\nversion: 1.0.0\napiVersion: v2\n",
		"helm/x.yaml":             csv("x", ""),
		"badhelm/Chart.yaml":      "name: chart\nkeywords: notalist\n",
		"badhelm/x.yaml":          csv("x", ""),
		"noname/Chart.yaml":       "version: 1.0.0\n",
		"second/cm.yaml":          "kind: ConfigMap\n---\nkind: ClusterServiceVersion\n",
		"nested/sub/x.yaml":       csv("x", ""),
		"nested/sub/other/y.yaml": "y",
	})
	for sub, want := range map[string]string{
		"csv": bundle.RegistryV1, "json": bundle.RegistryV1, "plain": bundle.Plain,
		"helm": bundle.Helm, "badhelm": bundle.RegistryV1, "noname": bundle.Plain, "second": bundle.Plain,
	} {
		got, err := bundle.MediaType(filepath.Join(dir, sub))
		if err != nil || got != want {
			t.Errorf("%s: MediaType = %q, %v; want %q", sub, got, err, want)
		}
	}
	if _, err := bundle.MediaType(filepath.Join(dir, "nested")); err == nil || !strings.Contains(err.Error(), "has no files") {
		t.Errorf("nested: error %v", err)
	}
}

func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"b/manifests/x.csv.yaml": csv("x.v1", "")})
	r, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "b/manifests"), Package: "x", Channels: "alpha,stable", DefaultChannel: "stable", WorkDir: dir, Overwrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if !r.AnnotationsWritten || !r.DockerfileWritten || r.Inferred || r.MediaType != bundle.RegistryV1 {
		t.Fatalf("result %+v", r)
	}
	wantAnnotations := `annotations:
  operators.operatorframework.io.bundle.channel.default.v1: stable
  operators.operatorframework.io.bundle.channels.v1: alpha,stable
  operators.operatorframework.io.bundle.manifests.v1: manifests/
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.metadata.v1: metadata/
  operators.operatorframework.io.bundle.package.v1: x
`
	if got := read(t, filepath.Join(dir, "b/metadata/annotations.yaml")); got != wantAnnotations {
		t.Errorf("annotations.yaml:\n%s\nwant:\n%s", got, wantAnnotations)
	}
	wantDockerfile := `FROM scratch

LABEL operators.operatorframework.io.bundle.mediatype.v1=registry+v1
LABEL operators.operatorframework.io.bundle.manifests.v1=manifests/
LABEL operators.operatorframework.io.bundle.metadata.v1=metadata/
LABEL operators.operatorframework.io.bundle.package.v1=x
LABEL operators.operatorframework.io.bundle.channels.v1=alpha,stable
LABEL operators.operatorframework.io.bundle.channel.default.v1=stable

COPY b/manifests /manifests/
COPY b/metadata /metadata/
`
	if got := read(t, filepath.Join(dir, "bundle.Dockerfile")); got != wantDockerfile {
		t.Errorf("bundle.Dockerfile:\n%s\nwant:\n%s", got, wantDockerfile)
	}

	// Without overwrite, a matching annotations file is kept (with its
	// extra annotations), and so is the Dockerfile.
	write(t, dir, map[string]string{"b/metadata/annotations.yaml": wantAnnotations + "  extra: kept\n", "bundle.Dockerfile": "mine"})
	r, err = bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "b/manifests"), Package: "x", Channels: "alpha,stable", DefaultChannel: "stable", WorkDir: dir})
	if err != nil || r.AnnotationsWritten || r.DockerfileWritten {
		t.Fatalf("kept: %+v, %v", r, err)
	}
	if !strings.Contains(read(t, filepath.Join(dir, "b/metadata/annotations.yaml")), "extra: kept") || read(t, filepath.Join(dir, "bundle.Dockerfile")) != "mine" {
		t.Fatal("files were replaced")
	}
	// A disagreeing one is an error listing every difference, and
	// nothing is written.
	var mismatch *bundle.AnnotationsMismatchError
	work := t.TempDir()
	_, err = bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "b/manifests"), Package: "y", Channels: "beta", WorkDir: work})
	if !errors.As(err, &mismatch) || len(mismatch.Problems) != 2 || !strings.Contains(err.Error(), `operators.operatorframework.io.bundle.channels.v1 is "alpha,stable", expected "beta"`) {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, "bundle.Dockerfile")); err == nil {
		t.Fatal("a Dockerfile was written although the annotations disagree")
	}

	// -u copies the manifests, subdirectories included.
	write(t, dir, map[string]string{"b/manifests/sub/crd.yaml": "kind: CustomResourceDefinition\n"})
	out := filepath.Join(dir, "out2")
	_, err = bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "b/manifests"), Package: "x", Channels: "a", WorkDir: filepath.Join(dir, "work"), OutputDir: out, Overwrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(out, "manifests/sub/crd.yaml")) == "" || read(t, filepath.Join(out, "metadata/annotations.yaml")) == "" {
		t.Fatal("output dir incomplete")
	}
	if got := read(t, filepath.Join(dir, "work/bundle.Dockerfile")); !strings.HasSuffix(got, "LABEL operators.operatorframework.io.bundle.channels.v1=a\nCOPY ../out2/manifests /manifests/\nCOPY ../out2/metadata /metadata/\n") {
		t.Errorf("Dockerfile with -u:\n%s", got)
	}
}

func TestGenerateInfers(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"pkg/op.package.yaml": "packageName: op\nchannels:\n- name: stable\n  currentCSV: op.v2\n- name: fast\n  currentCSV: op.v3\n- name: old\n  currentCSV: op.v1\ndefaultChannel: fast\n",
		"pkg/README.md":       "# not a package manifest",
		"pkg/1/csv.yaml":      csv("op.v1", ""),
		"pkg/2/csv.yaml":      csv("op.v2", "op.v1"),
		"pkg/3/csv.yaml":      csv("op.v3", "", "op.v2"),
		"pkg/4/csv.yaml":      csv("op.v4", ""),
	})
	for sub, want := range map[string]string{"1": "fast,old,stable", "2": "fast,stable", "3": "fast"} {
		r, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "pkg", sub), WorkDir: t.TempDir(), Overwrite: true})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Inferred || r.Package != "op" || r.Channels != want || r.DefaultChannel != "fast" {
			t.Errorf("%s: %+v, want channels %s", sub, r, want)
		}
		os.RemoveAll(filepath.Join(dir, "pkg", "metadata"))
	}
	_, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "pkg", "4"), WorkDir: t.TempDir()})
	var inferErr *bundle.InferError
	if !errors.As(err, &inferErr) || !strings.Contains(err.Error(), "no channel") {
		t.Fatalf("bundle in no channel: %v", err)
	}
	// With the channels given, the package and default channel still come
	// from the package directory.
	r, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "pkg", "4"), Channels: "x", WorkDir: t.TempDir()})
	if err != nil || r.Package != "op" || r.DefaultChannel != "fast" || r.Channels != "x" {
		t.Fatalf("%+v, %v", r, err)
	}
	os.RemoveAll(filepath.Join(dir, "pkg", "metadata"))
	write(t, dir, map[string]string{"pkg/5/notes.txt": "no csv"})
	if _, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "pkg", "1"), WorkDir: t.TempDir()}); !errors.As(err, &inferErr) || !strings.Contains(err.Error(), "no ClusterServiceVersion found in") {
		t.Fatalf("directory without CSV: %v", err)
	}
	write(t, dir, map[string]string{"solo/b/csv.yaml": csv("x", "")})
	if _, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "solo", "b"), WorkDir: t.TempDir()}); !errors.As(err, &inferErr) || !strings.Contains(err.Error(), "has no package manifest") {
		t.Fatalf("no package manifest: %v", err)
	}
	if _, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "missing"), WorkDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no such file or directory") {
		t.Fatalf("missing directory: %v", err)
	}
}

// TestBuildImage builds bundle images without an engine into an OCI
// layout and a registry, and renders them as the bundle directory does;
// the same input makes the same image.
func TestBuildImage(t *testing.T) {
	imagetest.IsolateAuth(t)
	testdata, err := filepath.Abs("../../testdata/bundles/pelorus-operator_0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r, err := bundle.Generate(bundle.Options{Directory: filepath.Join(testdata, "manifests"), OutputDir: filepath.Join(dir, "b"), Package: "pelorus-operator", Channels: "alpha", WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	host := imagetest.Registry(t, "", "")
	refs := []string{"oci:" + dir + "/layout:v0.0.2", host + "/pelorus:v0.0.2"}
	var digests []string
	for _, ref := range refs {
		d, err := bundle.BuildImage(ctx, r, "", ref, time.Unix(0, 0), image.Options{})
		if err != nil {
			t.Fatal(err)
		}
		digests = append(digests, d.String())
	}
	if digests[0] != digests[1] {
		t.Errorf("digests differ: %v", digests)
	}
	for _, ref := range refs {
		img, err := image.Pull(ctx, ref, image.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if img.Labels[labels.Package] != "pelorus-operator" || img.Labels[labels.Channels] != "alpha" {
			t.Errorf("%s: labels %v", ref, img.Labels)
		}
		want := renderOne(t, filepath.Join(dir, "b"), ref)
		got := renderOne(t, ref, "")
		if got != want {
			t.Errorf("%s renders differently from its directory", ref)
		}
	}
	if _, err := bundle.BuildImage(ctx, r, "", "docker-archive:"+dir+"/x.tar", time.Unix(0, 0), image.Options{}); err == nil || !strings.Contains(err.Error(), "write to oci:DIR[:NAME]") {
		t.Errorf("docker-archive target: %v", err)
	}
}

func renderOne(t *testing.T, ref, imageRef string) string {
	t.Helper()
	r := &render.Renderer{}
	if imageRef != "" {
		r.ImageRefTemplate = template.Must(template.New("").Parse(imageRef))
	}
	cfg, err := r.Run(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := declcfg.Write(cfg, &b, declcfg.FormatJSON); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestUnpack(t *testing.T) {
	imagetest.IsolateAuth(t)
	testdata, err := filepath.Abs("../../testdata/bundles/pelorus-operator_0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	layout := filepath.Join(dir, "layout")
	imagetest.WriteLayout(t, layout, "good", imagetest.Image(t, map[string]string{labels.Package: "p"}, nil, imagetest.DirLayer(t, testdata, "")))
	imagetest.WriteLayout(t, layout, "bad", imagetest.Image(t, map[string]string{labels.Package: "p"}, nil,
		imagetest.Layer(t, imagetest.Entry{Name: "manifests/cm.yaml", Body: "kind: ConfigMap\n"}, imagetest.Entry{Name: "metadata/annotations.yaml", Body: "annotations: {}\n"})))
	imagetest.WriteLayout(t, layout, "catalog", imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.Layer(t, imagetest.Entry{Name: "configs/x.json", Body: "{}"})))
	ctx := context.Background()

	out := filepath.Join(dir, "out")
	if err := bundle.Unpack(ctx, "oci:"+layout+":good", out, bundle.UnpackOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"manifests/pelorus-operator.clusterserviceversion.yaml", "metadata/annotations.yaml", "metadata/properties.yaml"} {
		if got, want := read(t, filepath.Join(out, f)), read(t, filepath.Join(testdata, f)); got != want {
			t.Errorf("%s differs", f)
		}
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, %v", f, st.Mode(), err)
		}
	}
	// Unpacking again replaces files in place.
	if err := bundle.Unpack(ctx, "oci:"+layout+":good", out, bundle.UnpackOptions{}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 2 {
		t.Errorf("out holds %d entries, want manifests and metadata only", len(entries))
	}

	var invalid *bundle.InvalidBundleError
	if err := bundle.Unpack(ctx, "oci:"+layout+":bad", filepath.Join(dir, "bad"), bundle.UnpackOptions{}); !errors.As(err, &invalid) || !strings.Contains(err.Error(), "no csv in bundle") {
		t.Fatalf("invalid bundle: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "bad")); len(entries) != 0 {
		t.Errorf("an invalid bundle left %d entries", len(entries))
	}
	if err := bundle.Unpack(ctx, "oci:"+layout+":bad", filepath.Join(dir, "bad"), bundle.UnpackOptions{SkipValidation: true}); err != nil {
		t.Fatal(err)
	}
	if err := bundle.Unpack(ctx, "oci:"+layout+":catalog", filepath.Join(dir, "cat"), bundle.UnpackOptions{}); err == nil || !strings.Contains(err.Error(), "not a bundle image") {
		t.Fatalf("catalog image: %v", err)
	}
	write(t, dir, map[string]string{"file": "x"})
	if err := bundle.Unpack(ctx, "oci:"+layout+":good", filepath.Join(dir, "file"), bundle.UnpackOptions{}); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Fatalf("file as output: %v", err)
	}
}
