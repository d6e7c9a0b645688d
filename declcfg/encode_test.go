package declcfg_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

// TestWritersAgree checks the YAML writer against the JSON writer, object
// by object, on real catalogs and on a synthetic one: the YAML must be what
// upstream makes of the JSON (sigs.k8s.io/yaml.JSONToYAML). The JSON
// writer is checked against upstream's own output by the goldens. Under
// the race detector, one object in ten of the conformance data is checked.
func TestWritersAgree(t *testing.T) {
	synthetic := t.TempDir()
	if err := declcfgtest.Write(synthetic, declcfgtest.Options{Packages: 6, Bundles: 40, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	every := map[string]int{"../testdata/catalog": 1, "../testdata/bundles.golden": 1, "../testdata/bundles.golden-csvmeta": 1, synthetic: 1}
	for _, d := range []string{"catalogs", "bundles.golden", "bundles.golden-csvmeta"} {
		if dir := "../../shared/conformance/" + d; isDir(dir) && !testing.Short() {
			every[dir] = 1
			if raceDetector {
				every[dir] = 10
			}
		}
	}
	for dir, every := range every {
		cfg, err := declcfg.LoadFS(context.Background(), os.DirFS(dir))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		check := func(obj declcfg.Encodable) {
			if n++; n%every != 0 {
				return
			}
			js := obj.AppendJSON(nil)
			want, err := yaml.JSONToYAML(js)
			if err != nil {
				t.Fatalf("%s: upstream's YAML writer fails on our JSON: %v\n%.300s", dir, err, js)
			}
			got, err := obj.AppendYAML(nil)
			if err != nil || !bytes.Equal(got, append([]byte("---\n"), want...)) {
				t.Errorf("%s: YAML writer and JSON writer disagree (%v) on\n%.300s", dir, err, js)
			}
		}
		for i := range cfg.Packages {
			check(&cfg.Packages[i])
		}
		for i := range cfg.Channels {
			check(&cfg.Channels[i])
		}
		for i := range cfg.Bundles {
			check(&cfg.Bundles[i])
		}
		for i := range cfg.Deprecations {
			check(&cfg.Deprecations[i])
		}
		for i := range cfg.Others {
			check(&cfg.Others[i])
		}
		if n == 0 {
			t.Errorf("%s: no objects", dir)
		}
	}
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
