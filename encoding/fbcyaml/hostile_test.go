package fbcyaml

import (
	"encoding/base64"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/fbcat/opm/position"
)

// head is two lines of a package blob; the hostile part of each case
// starts on line 3.
const head = "schema: olm.package\nname: x\n"

// hostile are inputs from the field that must fail with an error at a
// line, within memory proportional to their size (maxAlloc bytes at
// most, allocated in all), whatever path reads them.
var hostile = []struct {
	name     string
	doc      string
	line     int
	col      int // 0: not checked
	msg      string
	maxAlloc uint64
}{
	{"flow sequences a million deep", head + "v: " + strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6) + "\n", 3, 0, maxDepthMsg, 64 << 20},
	{"flow mappings 100,000 deep", head + "v: " + strings.Repeat("{a: ", 1e5) + "1" + strings.Repeat("}", 1e5) + "\n", 3, 0, maxDepthMsg, 64 << 20},
	{"flow mappings 20,000 deep", head + "v: " + strings.Repeat("{a: ", 2e4) + "1" + strings.Repeat("}", 2e4) + "\n", 3, 0, maxDepthMsg, 32 << 20},
	{"flow sequences 20,000 deep", head + "v: " + strings.Repeat("[", 2e4) + strings.Repeat("]", 2e4) + "\n", 3, 0, maxDepthMsg, 32 << 20},
	{"block sequences a million deep", head + "v:\n" + strings.Repeat("- ", 1e6) + "x\n", 4, 0, maxDepthMsg, 64 << 20},
	{"block sequences 20,000 deep", head + "v:\n" + strings.Repeat("- ", 2e4) + "x\n", 4, 0, maxDepthMsg, 32 << 20},
	{"? in a plain scalar of a flow sequence", head + "v: [b?]\n", 3, 0, "did not find expected ',' or ']'", 1 << 20},
	{"? ending a flow mapping key", head + "v: {a?: b}\n", 3, 0, "did not find expected ',' or '}'", 1 << 20},
	{"? in a flow mapping value", head + "v: {a: b?c}\n", 3, 0, "did not find expected ',' or '}'", 1 << 20},
	{"quoted key of 1,024 characters", head + `"` + strings.Repeat("k", 1024) + "\": 1\n", 3, 0, "could not find expected ':'", 1 << 20},
	{"quoted flow key of 1,024 characters", head + `v: {"` + strings.Repeat("k", 1024) + "\": 1}\n", 3, 0, "did not find expected ',' or '}'", 1 << 20},
	{"plain key ending 1,025 characters before its colon", head + strings.Repeat("k", 1020) + "     : 1\n", 3, 0, "could not find expected ':'", 1 << 20},
	{"string of 1 MB aliased 1,100 times", head + "v: &a " + strings.Repeat("x", 1e6) + "\nw: [" + strings.Repeat("*a, ", 1099) + "*a]\n", 1, 0, errExpansion.Error(), 64 << 20},
	{"!!binary of 375 kB aliased 60,000 times", head + "v: &a !!binary " + base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 375000))) + "\nw:\n" + strings.Repeat("- *a\n", 6e4), 1, 0, "decodes a !!binary value again for every alias", 16 << 20},
	{"nested aliases", head + "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + laughs(9), 1, 0, "document contains excessive aliasing", 256 << 20},
	{"empty entry in a flow sequence", head + "k: [a, , b]\n", 3, 0, "did not find expected node content", 1 << 20},
	{"empty entry in a flow sequence on the first line", "k: [a, , b]\n", 1, 0, "did not find expected node content", 1 << 20},
	{"missing '-' in a block sequence", head + "b:\n  - x\n  y: 2\n", 5, 0, "did not find expected '-' indicator", 1 << 20},
	{"unclosed flow sequence", head + "b: [x\n", 3, 0, "did not find expected ',' or ']'", 1 << 20},
	{"NaN", head + "\nk: 1\nv: .nan\n", 5, 4, "the number NaN cannot be represented in JSON", 1 << 20},
	{"infinity in a flow sequence", head + "v: [1, -.inf]\n", 3, 8, "the number -Inf cannot be represented in JSON", 1 << 20},
	{"infinity in a block sequence", head + "v:\n- 1\n- +.Inf # big\n", 5, 3, "the number +Inf cannot be represented in JSON", 1 << 20},
	{"NaN after an anchor", head + "a: &x 1\nb: *x\nv: [.NaN]\n", 5, 5, "the number NaN cannot be represented in JSON", 1 << 20},
	{"NaN before a syntax error", head + "v: .nan\nw: [\n", 4, 0, "did not find expected node content", 1 << 20},
}

// laughs is n levels of aliases, each repeating the one before ten times.
func laughs(n int) string {
	var b strings.Builder
	prev := "a"
	for i := 0; i < n; i++ {
		name := string(rune('b' + i))
		b.WriteString(name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n")
		prev = name
	}
	return b.String()
}

func TestHostileYAML(t *testing.T) {
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Decode([]byte(tc.doc), 1)
			runtime.ReadMemStats(&after)
			var ye *position.Error
			if !errors.As(err, &ye) {
				t.Fatalf("error %v, want a *position.Error", err)
			}
			if ye.Line != tc.line || (tc.col != 0 && ye.Column != tc.col) || !strings.Contains(ye.Message, tc.msg) {
				t.Errorf("error at %d:%d %q, want %d:%d %q", ye.Line, ye.Column, ye.Message, tc.line, tc.col, tc.msg)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > tc.maxAlloc {
				t.Errorf("allocated %d bytes for a %d-byte document, want at most %d", n, len(tc.doc), tc.maxAlloc)
			}
		})
	}
}

// TestLimitsLeaveValidDocuments holds the limits to what go-yaml accepts:
// documents at the limits still read, on both paths.
func TestLimitsLeaveValidDocuments(t *testing.T) {
	for _, doc := range []string{
		"v: " + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + "\n",
		"v: " + strings.Repeat("{a: ", 9999) + "1" + strings.Repeat("}", 9999) + "\n",
		"v:\n" + strings.Repeat("- ", 9999) + "x\n",
		`"` + strings.Repeat("k", 1022) + "\": 1\n",
		strings.Repeat("k", 1024) + ": 1\n",
		"v: {" + strings.Repeat("k", 1024) + ": 1}\n",
		"v: {a: b:c, d: e-f}\n",
		"v: &a " + strings.Repeat("x", 1000) + "\nw: [" + strings.Repeat("*a, ", 99) + "*a]\n",
		"v: &a !!binary " + base64.StdEncoding.EncodeToString([]byte("hello")) + "\nw: [*a, *a]\n",
		"description: '* one\n\n  * two! 100%'\n",
		".nan: 1\n'.inf': .infinity\n",
	} {
		if _, err := Decode([]byte(doc), 1); err != nil {
			t.Errorf("Decode(%.60q...): %v", doc, err)
		}
		if _, err := slowDecode([]byte(doc), 1); err != nil {
			t.Errorf("go-yaml path on %.60q...: %v", doc, err)
		}
	}
}
