package registryv1

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/position"
)

// FuzzParse parses a registry+v1 bundle directory made of a fuzzed CSV,
// CRD, annotations file and second metadata file (properties or
// dependencies), and checks what holds for any input: no panic; a
// problem is a *position.Error naming the file or directory at fault; parsing is
// deterministic; and the olm.bundle blob of a bundle that parses has
// property values of valid JSON (or none, written as null) and, written
// as upstream writes it, loads as a catalog without problems.
func FuzzParse(f *testing.F) {
	if testing.Short() {
		f.Skip("the seed corpus runs in make test-full")
	}
	f.Add([]byte(testCSV), []byte(testCRD), []byte(testAnnotations), []byte("properties:\n- type: olm.maxOpenShiftVersion\n  value: 4.16\n"))
	f.Add([]byte(testCSV), []byte(testCRD), []byte(testAnnotations), []byte("dependencies:\n- type: olm.gvk\n  value: {group: g, kind: K, version: v1}\n"))
	dirs, _ := filepath.Glob("../testdata/bundles/*")
	for _, dir := range dirs {
		var csv, crd []byte
		manifests, _ := filepath.Glob(filepath.Join(dir, "manifests", "*"))
		for _, m := range manifests {
			data, err := os.ReadFile(m)
			switch {
			case err != nil || len(data) > 48<<10:
			case bytes.Contains(data, []byte("kind: ClusterServiceVersion")):
				csv = data
			case bytes.Contains(data, []byte("kind: CustomResourceDefinition")):
				crd = data
			}
		}
		annotations, _ := os.ReadFile(filepath.Join(dir, "metadata", "annotations.yaml"))
		extra, _ := os.ReadFile(filepath.Join(dir, "metadata", "dependencies.yaml"))
		if len(csv)+len(crd)+len(annotations)+len(extra) > maxFuzzInput {
			crd = nil // the CSV alone makes the seed
		}
		if csv != nil {
			f.Add(csv, crd, annotations, extra)
		}
	}
	f.Fuzz(func(t *testing.T, csv, crd, annotations, extra []byte) {
		if len(csv)+len(crd)+len(annotations)+len(extra) > maxFuzzInput {
			return
		}
		fsys := fstest.MapFS{
			"manifests/csv.yaml":        {Data: csv},
			"manifests/crd.yaml":        {Data: crd},
			"metadata/annotations.yaml": {Data: annotations},
			"metadata/extra.yaml":       {Data: extra},
		}
		fbc, err := parseFBC(t, fsys)
		again, err2 := parseFBC(t, fsys)
		if !reflect.DeepEqual(fbc, again) || (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("two parses differ: %v, %v", err, err2)
		}
		if err != nil {
			return
		}
		for _, p := range fbc.Properties {
			// A property without a value (an empty entry in
			// properties.yaml) is written as null, as upstream does.
			if len(p.Value) > 0 && !json.Valid(p.Value) {
				t.Fatalf("property %s has invalid JSON %q", p.Type, p.Value)
			}
		}
		var out bytes.Buffer
		if err := declcfg.Write(&declcfg.DeclarativeConfig{Bundles: []declcfg.Bundle{fbc}}, &out, declcfg.FormatJSON); err != nil {
			t.Fatalf("writing the bundle: %v", err)
		}
		if _, err := declcfg.LoadFS(context.Background(), fstest.MapFS{"b.json": {Data: out.Bytes()}}); err != nil {
			t.Fatalf("loading the rendered bundle\n%s\n: %v", out.Bytes(), err)
		}
	})
}

// maxFuzzInput bounds fuzz inputs, so that a slow case shows up as a
// slow execution rather than a hang of the fuzzer.
const maxFuzzInput = 64 << 10

// parseFBC parses a bundle and makes its blob, checking the form of any
// problem.
func parseFBC(t *testing.T, fsys fstest.MapFS) (declcfg.Bundle, error) {
	t.Helper()
	b, err := Parse(fsys)
	if err == nil {
		var fbc declcfg.Bundle
		if fbc, err = b.FBC("quay.io/x/b:1"); err == nil {
			return fbc, nil
		}
	}
	var be *position.Error
	if !errors.As(err, &be) || be.File == "" || be.Err == nil {
		t.Fatalf("problem %#v: want a *position.Error naming a file", err)
	}
	return declcfg.Bundle{}, err
}
