package textdiff

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// noEnds leaves nothing out: the plain diff, which splits and compares
// both texts whole.
func noEnds(_, _ []byte, _ func([]byte) bool) (int, int) { return 0, 0 }

// sameAsPlain checks that the diffs (unified and readable) of old and
// new, which leave out the texts' common ends, are byte for byte those
// that compare the texts whole.
func sameAsPlain(t *testing.T, what string, old, new []byte) {
	t.Helper()
	for _, kind := range []string{"unified", "readable"} {
		var fast, plain bytes.Buffer
		var errFast, errPlain error
		if kind == "unified" {
			errFast, errPlain = unified(&fast, "c.yaml", old, new, commonEnds), unified(&plain, "c.yaml", old, new, noEnds)
		} else {
			errFast, errPlain = readable(&fast, "c.yaml", old, new, "", commonEnds), readable(&plain, "c.yaml", old, new, "", noEnds)
		}
		if errFast != nil || errPlain != nil {
			t.Fatalf("%s: %v, %v", what, errFast, errPlain)
		}
		if !bytes.Equal(fast.Bytes(), plain.Bytes()) {
			t.Fatalf("%s: the %s diff differs from the plain one\nold:\n%s\nnew:\n%s\nfast:\n%s\nplain:\n%s", what, kind, old, new, fast.Bytes(), plain.Bytes())
		}
	}
}

// catalogLines are pieces of catalog-like text: lines at column 0
// (which start units), indented ones, list items, empty lines, bundle
// objects and CSV metadata (units of several lines), a long line and a
// base64 data line.
var catalogLines = []string{
	"---\n", "schema: olm.bundle\n", "name: a\n", "name: b\n", "properties:\n", "{\n", "}\n",
	"  name: a\n", "  name: b\n", "- name: a\n", "- name: b\n", "\n", "    - x\n",
	"- type: olm.bundle.object\n  value:\n    data: " + b64(`{"kind":"ConfigMap","metadata":{"name":"a"}}`) + "\n",
	"- type: olm.bundle.object\n  value:\n    data: " + b64(`{"kind":"Secret","metadata":{"name":"b"}}`) + "\n",
	"  - type: olm.csv.metadata\n    value:\n      description: |\n        one\n\n        two\n      keywords:\n      - a\n      displayName: A\n",
	"  - type: olm.csv.metadata\n    value:\n      displayName: B\n",
	"      displayName: C\n", "        more\n",
	"description: " + strings.Repeat("long ", 80) + "\n",
	"  data: " + strings.Repeat("QUJD", 20) + "\n",
}

func b64(s string) string {
	var buf bytes.Buffer
	for _, b := range []byte(s) { // not base64: a line for the summariser to try
		fmt.Fprintf(&buf, "%02x", b)
	}
	return "QUJD" + strings.Repeat("QUJD", 16) + buf.String()[:8]
}

// randomText is n pieces of catalogLines, maybe without a last line end.
func randomText(rng *rand.Rand, n int) []byte {
	var buf bytes.Buffer
	for range n {
		buf.WriteString(catalogLines[rng.Intn(len(catalogLines))])
	}
	if rng.Intn(5) == 0 && buf.Len() > 0 {
		buf.Truncate(buf.Len() - 1)
	}
	return buf.Bytes()
}

// edited is text with a few lines removed, inserted, repeated or
// changed, near each other or anywhere.
func edited(rng *rand.Rand, text []byte) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	for range 1 + rng.Intn(4) {
		i := rng.Intn(len(lines) + 1)
		switch rng.Intn(4) {
		case 0:
			if i < len(lines) {
				lines = append(lines[:i], lines[i+1:]...)
			}
		case 1:
			lines = append(lines[:i], append([]string{catalogLines[rng.Intn(len(catalogLines))]}, lines[i:]...)...)
		case 2:
			if i > 0 {
				lines = append(lines[:i], append([]string{lines[i-1]}, lines[i:]...)...)
			}
		default:
			if i < len(lines) {
				lines[i] = strings.Replace(lines[i], "a", "b", 1)
			}
		}
	}
	return []byte(strings.Join(lines, ""))
}

// TestDiffLeavingOutCommonEndsIsPlain: on random catalog-like texts and
// their edits, the diffs that leave out the common start and end print
// what the plain ones print.
func TestDiffLeavingOutCommonEndsIsPlain(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	for i := range 4000 {
		old := randomText(rng, rng.Intn(60))
		var new []byte
		switch i % 4 {
		case 0:
			new = randomText(rng, rng.Intn(60))
		case 1:
			new = append(slicesClone(old), old...) // a text and itself twice
		default:
			new = edited(rng, old)
		}
		sameAsPlain(t, fmt.Sprintf("case %d", i), old, new)
		sameAsPlain(t, fmt.Sprintf("case %d reversed", i), new, old)
	}
	sameAsPlain(t, "new file", nil, randomText(rng, 30))
}

func slicesClone(b []byte) []byte { return append([]byte(nil), b...) }

// TestDiffLeavingOutCommonEndsIsPlainOnRealCatalogs: the same on the
// real catalogs and templates of testdata (bundle objects, CSV metadata,
// JSON and YAML), and without -short on the conformance catalogs when
// they are there, each edited at random.
func TestDiffLeavingOutCommonEndsIsPlainOnRealCatalogs(t *testing.T) {
	patterns := []string{"../../testdata/*.golden*", "../../testdata/bundles.golden*/*", "../../testdata/repo/catalogs/*/*/*", "../../testdata/templates/*.yaml", "../../testdata/catalog/*/*"}
	if !testing.Short() {
		patterns = append(patterns, "../../../shared/conformance/catalogs/*/*", "../../../shared/conformance/*.golden.*")
	}
	var files []string
	for _, pattern := range patterns {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	rng := rand.New(rand.NewSource(7))
	n := 0
	for _, f := range files {
		old, err := os.ReadFile(f)
		if err != nil || len(old) == 0 {
			continue
		}
		n++
		edits := 20
		if len(old) > 256<<10 {
			edits = 2
		}
		for i := range edits {
			sameAsPlain(t, fmt.Sprintf("%s, edit %d", f, i), old, edited(rng, old))
		}
	}
	if n < 10 {
		t.Fatalf("only %d real catalogs in testdata", n)
	}
}

// TestCommonEndsLeaveOutMost: on a large text changed in the middle,
// most of it is left out.
func TestCommonEndsLeaveOutMost(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	old := randomText(rng, 5000)
	mid := len(old) / 2
	new := append(append(slicesClone(old[:mid]), "name: inserted\n"...), old[mid:]...)
	pre, suf := commonEnds(old, new, startsUnit)
	if pre+suf < len(old)*9/10 {
		t.Errorf("only %d + %d of %d bytes left out", pre, suf, len(old))
	}
	sameAsPlain(t, "large", old, new)
}
