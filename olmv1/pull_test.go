package olmv1

import (
	"context"
	"strings"
	"testing"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
)

// A bundle image reads as its directory does; a catalog image is refused.
func TestOpenBundleImage(t *testing.T) {
	imagetest.IsolateAuth(t)
	reg := imagetest.Registry(t, "", "")
	dir := "../testdata/bundles/ack-ecrpublic-controller_1.0.14"
	imagetest.Push(t, reg+"/ack:v1", imagetest.Image(t, map[string]string{labels.Package: "ack-ecrpublic-controller"}, nil, imagetest.DirLayer(t, dir, "")))
	imagetest.Push(t, reg+"/catalog:v1", imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil, imagetest.DirLayer(t, "testdata/catalog", "configs")))
	opts := image.Options{Insecure: true, TempDir: t.TempDir()}
	fromImage, err := OpenBundle(context.Background(), reg+"/ack:v1", opts)
	if err != nil {
		t.Fatal(err)
	}
	if fromImage.Image != reg+"/ack:v1" {
		t.Errorf("image %q", fromImage.Image)
	}
	fromDir, err := OpenBundle(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	a := yamlOf(t, mustManifests(t, fromImage, ManifestOptions{InstallNamespace: "ns"}).Objects)
	b := yamlOf(t, mustManifests(t, fromDir, ManifestOptions{InstallNamespace: "ns"}).Objects)
	if string(a) != string(b) {
		t.Error("the image renders differently from the directory")
	}
	for ref, want := range map[string]string{
		reg + "/catalog:v1": "not a bundle image",
		"no/such/dir":       "no bundle directory or image",
		"pull_test.go":      "not a directory nor an image reference",
	} {
		if _, err := OpenBundle(context.Background(), ref, opts); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", ref, err, want)
		}
	}
}
