package value

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// canonicalSamples are values in canonical form but for white space:
// AppendCanonical must take them and write what the parser and
// AppendCompact write.
var canonicalSamples = []string{
	`{}`, `[]`, `""`, `0`, `-7`, `123456789012345`, `-123456789012345`, `true`, `false`, `null`,
	`{"a":1,"b":[true,false,null],"c":{"d":"e"}}`,
	"{\n    \"a\": [\n        1,\n        2\n    ],\n\t\"b\" :\r\n {}\n}",
	`{"":0,"A":1,"B":2,"a":3,"é":4}`,
	`{"é":4,"b":{"z":1,"y":[{"q":1,"p":2}]},"a":3,"":0}`, // keys out of order
	`{"name":"x","version":"v1","kind":"K","displayName":"X","description":"d"}`,
	`"\" \\ \b \f \n \r \t \u0000 \u001f \u2028 \u2029"`,
	`"plain ascii ~ with DEL ` + "\x7f" + ` and é, 日本, 😀"`,
	`{"data":"` + strings.Repeat("QUJD", 100) + `"}`,
	`[[[[[[1]]]]]]`,
	`{"alm-examples":"[\n  {\n    \"kind\": \"X\"\n  }\n]"}`,
	// escapes encoding/json writes otherwise: decoded and written again
	`"\/ \u003c\u003E \u0026 \u0041 \u00e9 \u00E9 \u65e5 \ud83d\ude00 \u001F \u0008 \u000a \ufffd"`,
	`{"description":"caf\u00e9 <b>&amp;</b> \u2019quoted\u2019","b":"\u2028` + "\xe2\x80\xa8" + `"}`,
	"\"\xe2\x80\xa8 \xe2\x80\xa9\"", // raw U+2028 and U+2029, which encoding/json escapes
}

func TestAppendCanonicalMatchesCompact(t *testing.T) {
	for _, s := range canonicalSamples {
		data := []byte(" \n " + s + " ,")
		c := Cursor{Data: data, Line: 1}
		got, ok := c.AppendCanonical([]byte("prefix"), MaxDepth)
		if !ok {
			t.Errorf("AppendCanonical(%q) refused it", s)
			continue
		}
		v, err := ParseJSON([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if want := AppendCompact([]byte("prefix"), &v); !bytes.Equal(got, want) {
			t.Errorf("AppendCanonical(%q) = %s, want %s", s, got, want)
		}
		if c.Pos != len(data)-2 {
			t.Errorf("AppendCanonical(%q) stopped at %d, want %d", s, c.Pos, len(data)-2)
		}
		if want := int32(2 + strings.Count(s, "\n")); c.Line != want {
			t.Errorf("AppendCanonical(%q) is on line %d, want %d", s, c.Line, want)
		}
	}
}

// TestAppendCanonicalRefuses lists what the tree would write differently,
// or what only the parser can judge.
func TestAppendCanonicalRefuses(t *testing.T) {
	for _, s := range []string{
		`{"a":1,"a":2}`, `{"a":1,"b":2,"a":3}`, `{"b":1,"a":2,"b":3}`, `{"\u0061":1}`, `{"a\"":1}`, // repeated and escaped keys
		`"\x"`, `"\u12"`, `"\u12g4"`, `"\ud83d"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`, `"\ud83d\ud83d"`, `"\ud83d\x"`, // malformed escapes, lone surrogate halves
		"\"\x80\"", "\"\xe9 \\u00e9\"", "\"\xed\xa0\x80\"", "\"a\tb\"", "\"a\nb\"", "\"\\u00e9\nb\"", // invalid UTF-8, control characters
		`1.0`, `1e2`, `1E2`, `-0`, `01`, `1234567890123456`, `-`, `+1`, // numbers
		`tru`, `nul`, `True`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a":1`, `"abc`, ``, `}`, `{1:2}`, // syntax
	} {
		c := Cursor{Data: []byte(s), Line: 1}
		if out, ok := c.AppendCanonical(nil, MaxDepth); ok {
			t.Errorf("AppendCanonical(%q) = %s, want it refused", s, out)
		}
	}
	deep := strings.Repeat("[", 5) + strings.Repeat("]", 5)
	c := Cursor{Data: []byte(deep)}
	if _, ok := c.AppendCanonical(nil, 4); ok {
		t.Errorf("AppendCanonical took 5 levels of nesting with a limit of 4")
	}
	c = Cursor{Data: []byte(deep)}
	if _, ok := c.AppendCanonical(nil, 5); !ok {
		t.Errorf("AppendCanonical refused 5 levels of nesting with a limit of 5")
	}
}

func TestCursorPlainAndResume(t *testing.T) {
	data := []byte("{\n  \"name\": \"x\\ny\", \"image\": \"q.io/a@sha256:1\",\n  \"v\": 1.5}")
	p := NewJSONParser(data, 1)
	c := p.Cursor()
	if !c.Byte('{') {
		t.Fatal("no {")
	}
	if k, ok := c.Key(); !ok || string(k) != "name" {
		t.Fatalf("Key = %q, %v", k, ok)
	}
	start := c
	if _, ok := c.Plain(); ok {
		t.Fatal("Plain took a string with an escape")
	}
	c = start
	if _, ok := c.AppendCanonical(nil, 0); !ok || !c.Byte(',') {
		t.Fatal("AppendCanonical refused a canonical string")
	}
	if k, ok := c.Key(); !ok || string(k) != "image" {
		t.Fatalf("Key = %q, %v", k, ok)
	}
	if s, ok := c.Plain(); !ok || string(s) != "q.io/a@sha256:1" || !c.Byte(',') {
		t.Fatalf("Plain = %q, %v", s, ok)
	}
	if k, ok := c.Key(); !ok || string(k) != "v" {
		t.Fatalf("Key = %q, %v", k, ok)
	}
	// The parser goes on where the cursor stopped, at its line and column.
	p.Resume(c)
	_, err := p.Next()
	if err != nil || p.Line() != 3 {
		t.Fatalf("after Resume: %v, line %d", err, p.Line())
	}
	c.Space()
	if c.Col() != 8 || c.Line != 3 {
		t.Fatalf("cursor at %d:%d, want 3:8", c.Line, c.Col())
	}
}

// FuzzAppendCanonical checks, for any input, that a value AppendCanonical
// takes is one the parser reads to the same end and line, and that
// AppendCompact writes its tree as AppendCanonical wrote it.
func FuzzAppendCanonical(f *testing.F) {
	for _, s := range canonicalSamples {
		f.Add([]byte(s))
	}
	for _, s := range jsonSamples {
		f.Add([]byte(s))
	}
	names, _ := filepath.Glob("../../testdata/bundles.golden*/*.json")
	for _, name := range names {
		if data, err := os.ReadFile(name); err == nil && len(data) <= 64<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Cursor{Data: data, Line: 1}
		got, ok := c.AppendCanonical(nil, 64)
		if !ok {
			return
		}
		p := NewJSONParser(data, 1)
		v, err := p.Next()
		if err != nil {
			t.Fatalf("AppendCanonical took %q, which the parser refuses: %v", data, err)
		}
		if p.Offset() != c.Pos || p.Line() != c.Line {
			t.Fatalf("AppendCanonical(%q) ended at %d, line %d; the parser at %d, line %d", data, c.Pos, c.Line, p.Offset(), p.Line())
		}
		if want := AppendCompact(nil, &v); !bytes.Equal(got, want) {
			t.Fatalf("AppendCanonical(%q) = %s, the tree is written %s", data, got, want)
		}
	})
}
