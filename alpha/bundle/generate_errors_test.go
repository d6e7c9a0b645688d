package bundle_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/bundle"
)

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		if runtime.GOOS == "windows" {
			t.Skip("symbolic links need privileges on windows")
		}
		t.Fatal(err)
	}
}

func TestGenerateRefusesBadDirectories(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"file.yaml": "kind: ConfigMap\n", "links/cm.yaml": "kind: ConfigMap\n"})
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(dir, "gone.yaml"), filepath.Join(dir, "links", "dangling.yaml"))
	for name, want := range map[string]string{
		"missing":   "bundle directory " + filepath.Join(dir, "missing") + ": no such file or directory",
		"file.yaml": "bundle directory " + filepath.Join(dir, "file.yaml") + " is not a directory",
		"empty":     "has no files: it should hold the bundle's manifests",
		"links":     "cannot read dangling.yaml: no such file or directory",
	} {
		_, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, name), Package: "p", Channels: "c", WorkDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", name, err, want)
		}
	}
}

// TestGenerateExistingAnnotations: without overwrite, an annotations
// file that does not parse or does not agree is an error naming every
// difference; with it, the file is replaced.
func TestGenerateExistingAnnotations(t *testing.T) {
	dir := t.TempDir()
	manifests := filepath.Join(dir, "b", "manifests")
	annotations := filepath.Join(dir, "b", "metadata", "annotations.yaml")
	write(t, dir, map[string]string{"b/manifests/csv.yaml": csv("x.v1", "")})
	opts := bundle.Options{Directory: manifests, Package: "x", Channels: "alpha", WorkDir: dir}

	write(t, dir, map[string]string{"b/metadata/annotations.yaml": "annotations: [unclosed\n"})
	if _, err := bundle.Generate(opts); err == nil || !strings.HasPrefix(err.Error(), annotations+": ") || !strings.HasSuffix(err.Error(), "(overwrite it to generate a new one)") {
		t.Errorf("unparsable annotations: %v", err)
	}
	write(t, dir, map[string]string{"b/metadata/annotations.yaml": "annotations:\n" +
		"  operators.operatorframework.io.bundle.channels.v1: [alpha]\n" +
		"  operators.operatorframework.io.bundle.package.v1: x\n"})
	_, err := bundle.Generate(opts)
	var mismatch *bundle.AnnotationsMismatchError
	if !errors.As(err, &mismatch) || mismatch.File != annotations {
		t.Fatalf("mismatch: %v", err)
	}
	want := []string{
		`operators.operatorframework.io.bundle.channels.v1 is not a string (expected "alpha")`,
		`operators.operatorframework.io.bundle.manifests.v1 is missing (expected "manifests/")`,
		`operators.operatorframework.io.bundle.mediatype.v1 is missing (expected "registry+v1")`,
		`operators.operatorframework.io.bundle.metadata.v1 is missing (expected "metadata/")`,
	}
	if strings.Join(mismatch.Problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(mismatch.Problems, "\n"), strings.Join(want, "\n"))
	}
	if _, err := os.Stat(filepath.Join(dir, "bundle.Dockerfile")); err == nil {
		t.Error("bundle.Dockerfile written although the annotations disagree")
	}

	opts.Overwrite = true
	r, err := bundle.Generate(opts)
	if err != nil || !r.AnnotationsWritten || !strings.Contains(read(t, annotations), "channels.v1: alpha\n") {
		t.Fatalf("overwrite: %+v, %v", r, err)
	}

	os.RemoveAll(filepath.Dir(annotations))
	if err := os.MkdirAll(annotations, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := bundle.Generate(opts); err == nil || !strings.Contains(err.Error(), "reading "+annotations+": ") {
		t.Errorf("annotations.yaml is a directory: %v", err)
	}
}

// TestGenerateWithoutDefaultChannel: a bundle with one channel given
// and no default gets no default-channel annotation or label; the
// Dockerfile uses the base image asked for, in a work directory that is
// made if missing.
func TestGenerateWithoutDefaultChannel(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"b/manifests/cm.yaml": "kind: ConfigMap\n"})
	work := filepath.Join(dir, "new", "work")
	r, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "b", "manifests"), Package: "x", Channels: "alpha", BaseImage: "example.com/base:1", WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	if r.MediaType != bundle.Plain || r.Inferred || r.DefaultChannel != "" {
		t.Errorf("result %+v", r)
	}
	if _, ok := r.Labels["operators.operatorframework.io.bundle.channel.default.v1"]; ok {
		t.Errorf("labels %v carry a default channel", r.Labels)
	}
	if got := read(t, r.Annotations); strings.Contains(got, "channel.default") || !strings.Contains(got, "mediatype.v1: plain\n") {
		t.Errorf("annotations.yaml:\n%s", got)
	}
	wantDockerfile := `FROM example.com/base:1

LABEL operators.operatorframework.io.bundle.mediatype.v1=plain
LABEL operators.operatorframework.io.bundle.manifests.v1=manifests/
LABEL operators.operatorframework.io.bundle.metadata.v1=metadata/
LABEL operators.operatorframework.io.bundle.package.v1=x
LABEL operators.operatorframework.io.bundle.channels.v1=alpha
COPY ../../b/manifests /manifests/
COPY ../../b/metadata /metadata/
`
	if got := read(t, filepath.Join(work, "bundle.Dockerfile")); got != wantDockerfile {
		t.Errorf("bundle.Dockerfile:\n%s\nwant:\n%s", got, wantDockerfile)
	}
}

// TestGenerateCopiesManifests: with an output directory, manifests are
// copied keeping their modes; existing copies are kept unless
// overwriting; a link to nothing is an error.
func TestGenerateCopiesManifests(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"m/csv.yaml": csv("x.v1", ""), "m/hooks/run.sh": "#!/bin/sh\n", "out/manifests/csv.yaml": "old"})
	if err := os.Chmod(filepath.Join(dir, "m/hooks/run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	opts := bundle.Options{Directory: filepath.Join(dir, "m"), OutputDir: filepath.Join(dir, "out"), Package: "x", Channels: "a", WorkDir: dir}
	if _, err := bundle.Generate(opts); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(dir, "out/manifests/csv.yaml")); got != "old" {
		t.Errorf("existing copy replaced without overwrite: %q", got)
	}
	st, err := os.Stat(filepath.Join(dir, "out/manifests/hooks/run.sh"))
	if err != nil || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o755) {
		t.Errorf("copied script: %v, %v; want mode 0755", st, err)
	}
	opts.Overwrite = true
	if _, err := bundle.Generate(opts); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(dir, "out/manifests/csv.yaml")); got != csv("x.v1", "") {
		t.Errorf("overwrite kept the old copy: %q", got)
	}
	symlink(t, filepath.Join(dir, "nowhere"), filepath.Join(dir, "m/hooks/dangling"))
	if _, err := bundle.Generate(opts); err == nil || !strings.HasPrefix(err.Error(), "copying manifests: ") {
		t.Errorf("dangling link: %v", err)
	}
	write(t, dir, map[string]string{"file": "x"})
	opts.OutputDir = filepath.Join(dir, "file")
	if _, err := bundle.Generate(opts); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "file", "metadata")) {
		t.Errorf("output dir is a file: %v", err)
	}
}
