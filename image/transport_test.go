package image_test

import (
	"archive/tar"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
)

func TestParseLocalRef(t *testing.T) {
	tests := []struct {
		ref     string
		want    image.LocalRef
		local   bool
		wantErr string
	}{
		{"quay.io/org/x:v1", image.LocalRef{}, false, ""},
		{"localhost:5000/x:v1", image.LocalRef{}, false, ""},
		{"oci:dir", image.LocalRef{Transport: "oci", Path: "dir", Index: -1}, true, ""},
		{"oci:/abs/dir:v1", image.LocalRef{Transport: "oci", Path: "/abs/dir", Name: "v1", Index: -1}, true, ""},
		{"oci-archive:x.tar:latest", image.LocalRef{Transport: "oci-archive", Path: "x.tar", Name: "latest", Index: -1}, true, ""},
		{"docker-archive:x.tar:quay.io/org/x:v1", image.LocalRef{Transport: "docker-archive", Path: "x.tar", Name: "quay.io/org/x:v1", Index: -1}, true, ""},
		{"docker-archive:x.tar:@2", image.LocalRef{Transport: "docker-archive", Path: "x.tar", Index: 2}, true, ""},
		{"docker-archive:x.tar:@x", image.LocalRef{}, true, "is not an image index"},
		{"oci:", image.LocalRef{}, true, "write oci:PATH[:NAME]"},
	}
	for _, tt := range tests {
		got, local, err := image.ParseLocalRef(tt.ref)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want %q", tt.ref, err, tt.wantErr)
			}
			continue
		}
		if err != nil || local != tt.local || got != tt.want {
			t.Errorf("%s: got %+v, %v, %v; want %+v, %v", tt.ref, got, local, err, tt.want, tt.local)
		}
	}
}

// TestTransports writes one image to a registry, an OCI layout, an OCI
// archive and docker archives, and checks that each gives the same labels
// and the same files.
func TestTransports(t *testing.T) {
	imagetest.IsolateAuth(t)
	lbls := map[string]string{labels.Package: "etcd", labels.MediaType: "registry+v1"}
	img := imagetest.Image(t, lbls, nil,
		imagetest.Layer(t,
			entry{Name: "manifests/", Type: tar.TypeDir},
			entry{Name: "manifests/csv.yaml", Body: "kind: ClusterServiceVersion\n"},
			entry{Name: "manifests/old.yaml", Body: "old"},
		),
		imagetest.Layer(t,
			entry{Name: "manifests/.wh.old.yaml"},
			entry{Name: "metadata/annotations.yaml", Body: "annotations: {}\n"},
			entry{Name: "other/file", Body: "not extracted"},
		))
	other := imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.Layer(t, entry{Name: "configs/x.json", Body: "{}"}))
	arm := imagetest.Image(t, map[string]string{labels.Package: "arm"}, &v1.Platform{OS: "linux", Architecture: "arm64"},
		imagetest.Layer(t, entry{Name: "manifests/arm.yaml", Body: "arm"}))

	dir := t.TempDir()
	host := imagetest.Registry(t, "", "")
	imagetest.Push(t, host+"/bundle:v1", img)
	layout := filepath.Join(dir, "layout")
	imagetest.WriteLayout(t, layout, "v1", img)
	imagetest.WriteLayout(t, layout, "other", other)
	imagetest.WriteLayoutIndex(t, layout, "multi", arm, img)
	single := filepath.Join(dir, "single")
	imagetest.WriteLayout(t, single, "", img)
	imagetest.TarDir(t, layout, filepath.Join(dir, "oci.tar"))
	imagetest.WriteDockerArchive(t, filepath.Join(dir, "docker.tar"), []string{"quay.io/org/other:v1", "localhost/bundle:latest"}, other, img)
	imagetest.WriteDockerArchive(t, filepath.Join(dir, "one.tar"), nil, img)
	tag, err := name.NewTag("quay.io/org/bundle:v1")
	if err != nil {
		t.Fatal(err)
	}
	if err := tarball.WriteToFile(filepath.Join(dir, "ggcr.tar"), tag, img); err != nil {
		t.Fatal(err)
	}

	want := extractRef(t, host+"/bundle:v1", image.Options{})
	if len(want) != 4 {
		t.Fatalf("registry image extracted as %q", want)
	}
	for _, ref := range []string{
		"oci:" + layout + ":v1",
		"oci:" + layout + ":multi",
		"oci:" + single,
		"oci-archive:" + dir + "/oci.tar:v1",
		"docker-archive:" + dir + "/docker.tar:localhost/bundle:latest",
		"docker-archive:" + dir + "/docker.tar:localhost/bundle",
		"docker-archive:" + dir + "/docker.tar:@1",
		"docker-archive:" + dir + "/one.tar",
		"docker-archive:" + dir + "/ggcr.tar:quay.io/org/bundle:v1",
	} {
		t.Run(ref, func(t *testing.T) {
			pulled, err := image.Pull(context.Background(), ref, image.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if pulled.Ref != ref || pulled.Labels[labels.Package] != "etcd" {
				t.Fatalf("Ref %q, labels %v", pulled.Ref, pulled.Labels)
			}
			if got := extractRef(t, ref, image.Options{}); !slices.Equal(got, want) {
				t.Fatalf("extracted %q, want %q", got, want)
			}
		})
	}

	arm64 := &v1.Platform{OS: "linux", Architecture: "arm64"}
	if got := extractRef(t, "oci:"+layout+":multi", image.Options{Platform: arm64}); !slices.Equal(got, []string{"manifests/", "manifests/arm.yaml=arm"}) {
		t.Fatalf("arm64 image of the index: %q", got)
	}
}

// extractRef pulls ref and lists its manifests/ and metadata/.
func extractRef(t *testing.T, ref string, opts image.Options) []string {
	t.Helper()
	img, err := image.Pull(context.Background(), ref, opts)
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := img.Extract(context.Background(), dst, "manifests", "metadata"); err != nil {
		t.Fatal(err)
	}
	return tree(t, dst)
}

// TestTransportErrors checks the errors of references Pull cannot use:
// each names the reference and says what is wrong with it.
func TestTransportErrors(t *testing.T) {
	dir := t.TempDir()
	img := imagetest.Image(t, map[string]string{labels.Package: "p"}, nil,
		imagetest.Layer(t, entry{Name: "manifests/a.yaml", Body: "a"}))
	layout := filepath.Join(dir, "layout")
	imagetest.WriteLayout(t, layout, "v1", img)
	imagetest.WriteLayout(t, layout, "v2", img)
	imagetest.WriteDockerArchive(t, filepath.Join(dir, "two.tar"), []string{"quay.io/a:1", "quay.io/b:1"}, img, img)
	if err := os.WriteFile(filepath.Join(dir, "junk.tar"), []byte("not a tar file at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct{ ref, want string }{
		{"oci:" + filepath.Join(dir, "missing"), "no such directory"},
		{"oci:" + filepath.Join(dir, "empty"), "is not an OCI image layout: it has no index.json"},
		{"oci:" + layout + ":v3", `has no image named "v3" (it has v1, v2)`},
		{"oci:" + layout, "holds 2 images: name one as oci:" + layout + ":NAME (it has v1, v2)"},
		{"oci-archive:" + layout, "is a directory, not an archive"},
		{"oci-archive:" + filepath.Join(dir, "junk.tar"), "not a readable tar file"},
		{"docker-archive:" + filepath.Join(dir, "two.tar"), "holds 2 images: name one as docker-archive:"},
		{"docker-archive:" + filepath.Join(dir, "two.tar") + ":quay.io/c:1", "has no image tagged quay.io/c:1 (it has quay.io/a:1, quay.io/b:1)"},
		{"docker-archive:" + filepath.Join(dir, "two.tar") + ":@2", "holds 2 images; @2 is not one of them"},
		{"oci-archive:" + filepath.Join(dir, "two.tar"), "is not an OCI image layout"},
		{"docker-archive:" + filepath.Join(dir, "missing.tar"), "no such file or directory"},
	}
	for _, tt := range tests {
		_, err := image.Pull(context.Background(), tt.ref, image.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.ref) {
			t.Errorf("%s: error %v, want one naming the reference and containing %q", tt.ref, err, tt.want)
		}
	}
}

// TestTransportExtractErrors checks that a layout whose layer blob was
// altered, or is a symbolic link out of the layout, pulls but does not
// extract.
func TestTransportExtractErrors(t *testing.T) {
	dir := t.TempDir()
	img := imagetest.Image(t, map[string]string{labels.Package: "p"}, nil,
		imagetest.Layer(t, entry{Name: "manifests/a.yaml", Body: "a"}))
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	digest, err := layers[0].Digest()
	if err != nil {
		t.Fatal(err)
	}

	// A layout whose layer blob was altered.
	tampered := filepath.Join(dir, "tampered")
	imagetest.WriteLayout(t, tampered, "v1", img)
	blob := filepath.Join(tampered, "blobs", "sha256", digest.Hex)
	rc, err := imagetest.Layer(t, entry{Name: "manifests/a.yaml", Body: "b"}).Compressed()
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(blob, data, 0o644); err != nil { // another valid layer
		t.Fatal(err)
	}

	// A layout whose blob is a symbolic link out of it.
	escape := filepath.Join(dir, "escape")
	imagetest.WriteLayout(t, escape, "v1", img)
	if err := os.Remove(filepath.Join(escape, "blobs", "sha256", digest.Hex)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(blob, filepath.Join(escape, "blobs", "sha256", digest.Hex)); err != nil {
		t.Fatal(err)
	}

	for ref, want := range map[string]string{
		"oci:" + tampered + ":v1": "does not match its digest",
		"oci:" + escape + ":v1":   "path escapes from parent",
	} {
		img, err := image.Pull(context.Background(), ref, image.Options{})
		if err != nil {
			t.Fatal(err)
		}
		err = img.Extract(context.Background(), t.TempDir())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: extract error %v, want %q", ref, err, want)
		}
	}
}
