package bundle_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/bundle"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
)

// TestUnpackPlainMetadataOnly: a bundle image that is not registry+v1 is
// not validated, and only the directories it has are written.
func TestUnpackPlainMetadataOnly(t *testing.T) {
	imagetest.IsolateAuth(t)
	dir := t.TempDir()
	layout := filepath.Join(dir, "layout")
	imagetest.WriteLayout(t, layout, "plain", imagetest.Image(t, map[string]string{labels.MediaType: bundle.Plain}, nil,
		imagetest.Layer(t, imagetest.Entry{Name: "metadata/annotations.yaml", Body: "annotations: {}\n"}, imagetest.Entry{Name: "other/x", Body: "x"})))
	out := filepath.Join(dir, "out", "nested")
	if err := bundle.Unpack(context.Background(), "oci:"+layout+":plain", out, bundle.UnpackOptions{}); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "metadata" || read(t, filepath.Join(out, "metadata/annotations.yaml")) != "annotations: {}\n" {
		t.Errorf("out holds %v, want metadata only", names)
	}
}

func TestUnpackErrors(t *testing.T) {
	imagetest.IsolateAuth(t)
	dir := t.TempDir()
	layout := filepath.Join(dir, "layout")
	imagetest.WriteLayout(t, layout, "bad", imagetest.Image(t, nil, nil,
		imagetest.Layer(t, imagetest.Entry{Name: "manifests/cm.yaml", Body: "kind: ConfigMap\n"})))
	write(t, dir, map[string]string{"file": "x", "clash/manifests": "a file where a directory goes"})
	ctx := context.Background()

	err := bundle.Unpack(ctx, "oci:"+layout+":bad", filepath.Join(dir, "invalid"), bundle.UnpackOptions{})
	var invalid *bundle.InvalidBundleError
	if !errors.As(err, &invalid) || invalid.Ref != "oci:"+layout+":bad" || errors.Unwrap(invalid) != invalid.Err || !strings.HasSuffix(err.Error(), "(unpack it anyway with UnpackOptions.SkipValidation)") ||
		!strings.HasPrefix(err.Error(), `bundle image "oci:`+layout+`:bad" is not a valid registry+v1 bundle: `) {
		t.Errorf("invalid bundle: %v", err)
	}
	for name, tc := range map[string]struct{ ref, out, want string }{
		"missing layout": {"oci:" + filepath.Join(dir, "nolayout") + ":x", filepath.Join(dir, "o1"), "no such directory: " + filepath.Join(dir, "nolayout")},
		"missing tag":    {"oci:" + layout + ":nope", filepath.Join(dir, "o2"), `has no image named "nope" (it has bad)`},
		"out under file": {"oci:" + layout + ":bad", filepath.Join(dir, "file", "out"), filepath.Join(dir, "file")},
		"dir is a file":  {"oci:" + layout + ":bad", filepath.Join(dir, "clash"), filepath.Join(dir, "clash", "manifests")},
	} {
		err := bundle.Unpack(ctx, tc.ref, tc.out, bundle.UnpackOptions{SkipValidation: true})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", name, err, tc.want)
		}
	}
}
