package bundle_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/bundle"
)

// TestInferSkipsWhatIsNotAPackageManifest: files whose packageName,
// defaultChannel or channels have the wrong shape are not package
// manifests (upstream skips them), so a package directory with only such
// files has none.
func TestInferSkipsWhatIsNotAPackageManifest(t *testing.T) {
	for name, manifest := range map[string]string{
		"no packageName":      "channels: []\n",
		"packageName number":  "packageName: 5\n",
		"defaultChannel map":  "packageName: op\ndefaultChannel: {a: b}\n",
		"channels string":     "packageName: op\nchannels: stable\n",
		"channel not object":  "packageName: op\nchannels: [stable]\n",
		"channel name list":   "packageName: op\nchannels:\n- name: [stable]\n  currentCSV: op.v1\n",
		"currentCSV a number": "packageName: op\nchannels:\n- name: stable\n  currentCSV: 1\n",
	} {
		dir := t.TempDir()
		write(t, dir, map[string]string{"pkg/op.package.yaml": manifest, "pkg/1/csv.yaml": csv("op.v1", "")})
		_, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "pkg", "1"), WorkDir: t.TempDir()})
		var inferErr *bundle.InferError
		if !errors.As(err, &inferErr) || !strings.Contains(err.Error(), "has no package manifest") {
			t.Errorf("%s: err = %v, want no package manifest", name, err)
			continue
		}
		if inferErr.Dir != filepath.Join(dir, "pkg", "1") || errors.Unwrap(inferErr) != inferErr.Err || !strings.HasSuffix(err.Error(), "(or give them with Options.Package and Options.Channels)") {
			t.Errorf("%s: InferError %+v does not name the bundle or unwrap to its cause", name, inferErr)
		}
	}
}

// TestInferFollowsCycles: replaces and skips that loop end the walk; a
// manifest with one channel and no default makes it the default.
func TestInferFollowsCycles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"pkg/op.package.yaml": "packageName: op\nchannels:\n- name: stable\n  currentCSV: op.v2\n",
		"pkg/1/csv.yaml":      csv("op.v1", "op.v2"),
		"pkg/2/csv.yaml":      csv("op.v2", "op.v1"),
		"pkg/3/csv.yaml":      csv("op.v3", "", "op.v2"),
	})
	// (metadata/ goes elsewhere: in pkg/ it would be a directory without a CSV)
	r, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "pkg", "1"), OutputDir: t.TempDir(), WorkDir: t.TempDir()})
	if err != nil || r.Channels != "stable" || r.DefaultChannel != "stable" || r.Package != "op" {
		t.Fatalf("op.v1: %+v, %v", r, err)
	}
	_, err = bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "pkg", "3"), WorkDir: t.TempDir()})
	if err == nil || !strings.HasSuffix(err.Error(), "the bundle is in no channel of its package manifest (or give them with Options.Package and Options.Channels)") {
		t.Errorf("op.v3 is in no channel: %v", err)
	}
}

func TestInferRefusesTwoCSVs(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"pkg/op.package.yaml": "packageName: op\nchannels:\n- name: stable\n  currentCSV: op.v1\n",
		"pkg/1/a.yaml":        csv("op.v1", ""),
		"pkg/1/b.yaml":        csv("op.v1b", ""),
		"pkg/2/csv.yaml":      csv("op.v2", ""),
		"pkg/2/sub/x.yaml":    "kind: ConfigMap\n",
	})
	want := "bundle directory " + filepath.Join(dir, "pkg", "1") + " has more than one ClusterServiceVersion (a.yaml and b.yaml)"
	for _, b := range []string{"1", "2"} {
		_, err := bundle.Generate(bundle.Options{Directory: filepath.Join(dir, "pkg", b), WorkDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bundle %s: err = %v, want %q", b, err, want)
		}
	}
}
