package textdiff

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

// bundleCatalog is the YAML of a catalog of one real bundle of
// testdata/bundles, with its objects or migrated to olm.csv.metadata.
func bundleCatalog(t *testing.T, dir string, migrate bool) []byte {
	t.Helper()
	b, err := render.BundleFromDir(dir, "quay.io/example/bundle:v1")
	if err != nil {
		t.Fatal(err)
	}
	if migrate {
		ms, err := render.MigrationsFor("bundle-object-to-csv-metadata")
		if err != nil {
			t.Fatal(err)
		}
		if err := ms.Run(b); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := declcfg.Write(&declcfg.DeclarativeConfig{Bundles: []declcfg.Bundle{*b}}, &buf, declcfg.FormatYAML); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// longest is the length of the longest line of text.
func longest(text string) int {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		n = max(n, len(l))
	}
	return n
}

func TestReadableDiffRealBundles(t *testing.T) {
	dirs, _ := filepath.Glob("../../testdata/bundles/*")
	if len(dirs) == 0 {
		t.Fatal("no testdata/bundles")
	}
	for _, dir := range dirs {
		for _, migrate := range []bool{false, true} {
			cat := bundleCatalog(t, dir, migrate)
			var full, readable bytes.Buffer
			if err := Unified(&full, "c.yaml", nil, cat); err != nil {
				t.Fatal(err)
			}
			if err := Readable(&readable, "c.yaml", nil, cat, ""); err != nil {
				t.Fatal(err)
			}
			out := readable.String()
			if n := longest(out); n > MaxLine {
				t.Errorf("%s (migrated %v): a line of %d characters", dir, migrate, n)
			}
			if !migrate && longest(full.String()) <= MaxLine {
				t.Errorf("%s: the full diff should have the long lines the readable one summarises", dir)
			}
			want := `(?m)^\+- olm\.bundle\.object: ClusterServiceVersion \S+ \(\d+\.\d KB\)$`
			if migrate {
				want = `(?m)^\+- olm\.csv\.metadata:\n(\+    \w+: .*\n)*\+    displayName: \S`
			}
			if !regexp.MustCompile(want).MatchString(out) {
				t.Errorf("%s (migrated %v): no %s in\n%s", dir, migrate, want, out)
			}
			if hunks(out) != hunks(full.String()) {
				t.Errorf("%s: hunk headers differ: %q, %q", dir, hunks(out), hunks(full.String()))
			}
		}
	}
}

func hunks(diff string) string {
	return strings.Join(regexp.MustCompile(`(?m)^@@ .* @@$`).FindAllString(diff, -1), "\n")
}

// TestReadableDiffShowsChangedObjects: objects are compared whole, so one
// that changed shows as removed and added even though it is summarised
// the same, and the hunk headers count the file's lines.
func TestReadableDiffShowsChangedObjects(t *testing.T) {
	cat := bundleCatalog(t, "../../testdata/bundles/pelorus-operator_0.0.2", false)
	lines := strings.SplitAfter(string(cat), "\n")
	var changed []string
	done := false
	for _, l := range lines {
		if strings.HasPrefix(l, "    data: ") && !done {
			// Another base64 of the same size: the summary is the same.
			l = strings.Replace(l, "A", "B", 1)
			done = true
		}
		changed = append(changed, l)
	}
	var full, readable bytes.Buffer
	_ = Unified(&full, "c.yaml", cat, []byte(strings.Join(changed, "")))
	_ = Readable(&readable, "c.yaml", cat, []byte(strings.Join(changed, "")), "")
	out := readable.String()
	minus := regexp.MustCompile(`(?m)^-- olm\.bundle\.object: (.*)$`).FindStringSubmatch(out)
	plus := regexp.MustCompile(`(?m)^\+- olm\.bundle\.object: (.*)$`).FindStringSubmatch(out)
	if minus == nil || plus == nil {
		t.Fatalf("the changed object is not shown:\n%s", out)
	}
	// The hunk counts the object's three lines of the file as three.
	if h := hunks(out); h != "@@ -20,15 +20,15 @@" {
		t.Errorf("hunk headers: %q", h)
	}
}

func TestCutLine(t *testing.T) {
	long := strings.Repeat("é", 400) + "\n"
	got := string(summariser{full: "--full-diff"}.cutLine([]byte(long)))
	if len(got) > MaxLine || !strings.HasSuffix(got, "more bytes; --full-diff prints them)\n") || !strings.HasPrefix(got, "éé") {
		t.Errorf("cutLine: %q", got)
	}
	if string(summariser{full: "--full-diff"}.cutLine([]byte("short\n"))) != "short\n" {
		t.Error("a short line is kept")
	}
	if got := byteSize(12595); got != "12.3 KB" {
		t.Errorf("byteSize: %s", got)
	}
}
