package template

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/template/templatetest"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/render"
)

// benchTemplate pushes 50 bundle images of package "bench" (versions
// 0.0.0 to 4.4.1: five majors, five minors each, two patches each) to
// the registry at host and returns a semver template listing all of them
// under stable, the 1.x and 2.x ones under fast and the 4.x ones under
// candidate, with major and minor channels.
func benchTemplate(tb testing.TB, host string) string {
	skeleton := filepath.Join("..", "..", "testdata", "templates", "bundle")
	var all []string
	for major := range 5 {
		for minor := range 5 {
			for patch := range 2 {
				v := fmt.Sprintf("%d.%d.%d", major, minor, patch)
				ref := host + "/bench/bundle:v" + v
				templatetest.Push(tb, ref, skeleton, templatetest.Spec{Package: "bench", Version: v})
				all = append(all, ref)
			}
		}
	}
	list := func(refs []string) string {
		var b strings.Builder
		b.WriteString("  bundles:\n")
		for _, r := range refs {
			b.WriteString("  - image: " + r + "\n")
		}
		return b.String()
	}
	return "schema: olm.semver\ngenerateMajorChannels: true\ngenerateMinorChannels: true\n" +
		"candidate:\n" + list(all[40:]) + "fast:\n" + list(all[10:30]) + "stable:\n" + list(all)
}

// BenchmarkSemver50 renders a semver template of 50 bundle images pulled
// from an in-process registry and writes the catalog as JSON: what
// `opm alpha render-template` does, minus process start.
func BenchmarkSemver50(b *testing.B) {
	imagetest.IsolateAuth(b)
	text := benchTemplate(b, imagetest.Registry(b, "", ""))
	in := Input{Name: "semver.yaml", Data: []byte(text)}
	br := ImageBundles(render.Renderer{})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		cfg, err := Expand(b.Context(), Semver, in, br)
		if err != nil {
			b.Fatal(err)
		}
		var out bytes.Buffer
		if err := declcfg.Write(cfg, &out, declcfg.FormatJSON); err != nil {
			b.Fatal(err)
		}
		if len(cfg.Bundles) != 50 {
			b.Fatalf("%d bundles", len(cfg.Bundles))
		}
	}
}
