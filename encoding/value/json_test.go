package value

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/position"
)

// stdlibNormalize is what upstream does to every blob: decode into
// map[string]any (numbers as float64) and encode again without HTML escaping.
func stdlibNormalize(data []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return Marshal(v)
}

var jsonSamples = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.0`, `1e3`, `1E+21`, `1e-7`, `0.000001`, `123456789012345678901234`,
	`12345678901234567890`, `2.50`, `-1.5e-10`, `"a\u0000b\u001fc"`, `"\u2028\u2029"`, `"<>&"`, `"\ud83d\ude00"`, `"\ud83d"`,
	`"\udc00\ud800"`, "\"\xff\xfe\"", `{"b":1,"a":2,"a":3}`, `{"Z":1,"a":{"y":[1,{"x":null}]}}`, `"tab\there"`, `"\b\f\n\r\t\/"`,
	`[1,[2,[3,[]]],{}]`, `{"k":"é\u00e9"}`, `"\u007f"`,
}

func TestParseJSONMatchesEncodingJSON(t *testing.T) {
	for _, s := range jsonSamples {
		want, err := stdlibNormalize([]byte(s))
		if err != nil {
			t.Fatalf("stdlib rejects %q: %v", s, err)
		}
		v, err := ParseJSON([]byte(s))
		if err != nil {
			t.Fatalf("ParseJSON(%q): %v", s, err)
		}
		got := AppendCompact(nil, &v)
		if !bytes.Equal(got, want) {
			t.Errorf("ParseJSON(%q) compact = %s, want %s", s, got, want)
		}
	}
}

func TestParseJSONRejectsWhatEncodingJSONRejects(t *testing.T) {
	for _, s := range []string{`{`, `{"a"}`, `{"a":1,}`, `[1,]`, `01`, `1.`, `.5`, `-`, `1e`, `"abc`, "\"a\x01\"", `"\x"`, `tru`, `nul`,
		`{a:1}`, `'a'`, `"\u12"`, `[1 2]`, `1e999`, `{"a":1}x`} {
		if _, err := ParseJSON([]byte(s)); err == nil {
			t.Errorf("ParseJSON(%q) succeeded, want error", s)
		}
	}
}

func TestAppendIndentedRawMatchesJSONIndent(t *testing.T) {
	for _, s := range jsonSamples {
		v, err := ParseJSON([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		compact := AppendCompact(nil, &v)
		var want bytes.Buffer
		if err := json.Indent(&want, compact, "", "    "); err != nil {
			t.Fatal(err)
		}
		if got := AppendIndentedRaw(nil, compact, 0); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("indent of %s:\n got %s\nwant %s", compact, got, want.Bytes())
		}
	}
}

func TestPositions(t *testing.T) {
	v, err := ParseJSON([]byte("{\n  \"a\": [\n    1,\n    {\"b\": true}\n  ]\n}"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := v.Get("a")
	if a.Line != 2 || a.Col != 8 {
		t.Errorf("a at %d:%d, want 2:8", a.Line, a.Col)
	}
	b, _ := a.Items[1].Get("b")
	if a.Items[1].Line != 4 || b.Line != 4 || b.Col != 11 {
		t.Errorf("b at %d:%d (object at line %d), want 4:11", b.Line, b.Col, a.Items[1].Line)
	}
	_, err = ParseJSON([]byte("{\n\"a\": 1,\n}"))
	se, ok := err.(*position.Error)
	if !ok || se.Line != 3 || se.Column != 1 || se.File != "" {
		t.Errorf("error %v, want a syntax error at 3:1", err)
	}
}

func FuzzParseJSON(f *testing.F) {
	if testing.Short() {
		f.Skip("the seed corpus runs in make test-full")
	}
	for _, s := range jsonSamples {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)))
	f.Add([]byte("{\"a\":\n" + strings.Repeat(`{"a":`, MaxDepth) + "1" + strings.Repeat("}", MaxDepth+1)))
	for _, pattern := range []string{"../../testdata/serve/catalog/*/*.json", "../../testdata/bundles.golden*/*.json"} {
		names, _ := filepath.Glob(pattern)
		for _, name := range names {
			if data, err := os.ReadFile(name); err == nil && len(data) <= 64<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return // big inputs are slow, not more interesting
		}
		want, stdErr := stdlibNormalize(data)
		v, err := ParseJSON(data)
		if (err == nil) != (stdErr == nil) {
			t.Fatalf("ParseJSON(%q) error %v, encoding/json error %v", data, err, stdErr)
		}
		if err != nil {
			checkErrorPosition(t, data, err)
			return
		}
		if got := AppendCompact(nil, &v); !bytes.Equal(got, want) {
			t.Fatalf("ParseJSON(%q) = %s, encoding/json %s", data, got, want)
		}
		back, err := ParseJSON(want)
		if err != nil {
			t.Fatalf("ParseJSON of its own output %s: %v", want, err)
		}
		if got := AppendCompact(nil, &back); !bytes.Equal(got, want) {
			t.Fatalf("round trip of %s gave %s", want, got)
		}
		var ind bytes.Buffer
		if err := json.Indent(&ind, want, "", "    "); err != nil {
			t.Fatal(err)
		}
		if got := AppendIndentedRaw(nil, want, 0); !bytes.Equal(got, ind.Bytes()) {
			t.Fatalf("indent of %s = %s, want %s", want, got, ind.Bytes())
		}
	})
}

// checkErrorPosition checks that a syntax error's line and column are
// inside the input: a line of it, and a column of that line or just past
// its end.
func checkErrorPosition(t *testing.T, data []byte, err error) {
	t.Helper()
	se, ok := err.(*position.Error)
	lines := bytes.Split(data, []byte{'\n'})
	if !ok || se.Line < 1 || se.Line > len(lines) || se.Column < 1 || se.Column > len(lines[se.Line-1])+1 {
		t.Fatalf("ParseJSON(%q): error %#v, want a *position.Error inside the input", data, err)
	}
}
