package value

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/fbcat/opm/position"
)

// TestParseJSONDepth holds the parser to encoding/json's nesting limit:
// deeper input fails at the first bracket past the limit, with its line
// and column, in memory proportional to the limit rather than the input.
func TestParseJSONDepth(t *testing.T) {
	const prefix = "{\"schema\": \"olm.package\",\n\"v\": "
	for _, tc := range []struct {
		name      string
		data      string
		line, col int
	}{
		{"arrays a million deep", prefix + strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6) + "}", 2, 6 + MaxDepth - 1},
		{"objects 100,000 deep", prefix + strings.Repeat(`{"a":`, 1e5) + "1" + strings.Repeat("}", 1e5) + "}", 2, 6 + 5*(MaxDepth-1)},
		{"objects 20,000 deep", prefix + strings.Repeat(`{"a":`, 2e4) + "1" + strings.Repeat("}", 2e4) + "}", 2, 6 + 5*(MaxDepth-1)},
		{"arrays 20,000 deep, unclosed", prefix + strings.Repeat("[", 2e4), 2, 6 + MaxDepth - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ParseJSON([]byte(tc.data))
			runtime.ReadMemStats(&after)
			var se *position.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *position.Error", err)
			}
			if se.Line != tc.line || se.Column != tc.col || !strings.Contains(se.Message, "exceeded max depth of 10000") {
				t.Errorf("error at %d:%d %q, want %d:%d and the depth limit", se.Line, se.Column, se.Message, tc.line, tc.col)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
				t.Errorf("allocated %d bytes, want at most 16 MiB", n)
			}
		})
	}
	deepest := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := ParseJSON([]byte(deepest)); err != nil {
		t.Errorf("arrays %d deep: %v", MaxDepth, err)
	}
}

// TestPlainStrings checks which strings the parser marks Plain: those
// encoding/json writes back byte for byte.
func TestPlainStrings(t *testing.T) {
	for in, plain := range map[string]bool{
		`"abc ~<>&"`:         true,
		"\"del\x7f\"":        true,
		`"a\"b"`:             false,
		`"a\\b"`:             false,
		`"\u0041"`:           false,
		`"é"`:                false,
		`"` + "\xff" + `"`:   false,
		`"long plain text"`:  true,
		"\"\u2028 is text\"": false,
	} {
		v, err := ParseJSON([]byte(in))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if v.Plain != plain {
			t.Errorf("%q: Plain %v, want %v", in, v.Plain, plain)
		}
		if got := AppendCompact(nil, &v); plain && string(got) != in {
			t.Errorf("%q written back as %q", in, got)
		}
	}
}
