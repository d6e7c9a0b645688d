package value

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// randomText mixes what string writers must treat differently: control
// characters, quotes, backslashes, HTML characters, multi-byte and
// invalid UTF-8, U+2028, and long plain runs.
func randomText(r *rand.Rand) string {
	pieces := []string{"a", "plain text of some length ", "\x00", "\x1f", "\n", "\t", `"`, `\`, "<", ">", "&", "é", "日本", "😀", "\u2028", "\u2029", "\xff", "\xe2\x80", "\x7f", "0123456789abcdef"}
	var b strings.Builder
	for n := r.IntN(30); n > 0; n-- {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		s := randomText(r)
		want, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		want, _ = json.Marshal(s)
		if got := AppendKubernetesJSON(nil, &Value{Kind: String, Str: s}); !bytes.Equal(got, want) {
			t.Fatalf("AppendKubernetesJSON(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestAppendIndentedRawStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		v := Value{Kind: Object}
		for k := r.IntN(4); k >= 0; k-- {
			item := Value{Kind: Array, Items: []Value{{Kind: String, Str: randomText(r)}, {Kind: Object}}}
			v.Fields = append(v.Fields, Field{Key: randomText(r), Value: item})
		}
		v.Fields = NormalizeFields(v.Fields)
		compact := AppendCompact(nil, &v)
		var want bytes.Buffer
		if err := json.Indent(&want, compact, "", "    "); err != nil {
			t.Fatal(err)
		}
		if got := AppendIndentedRaw(nil, compact, 0); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("indent of %s:\n got %s\nwant %s", compact, got, want.Bytes())
		}
	}
}

// base64Property is an olm.bundle.object value of about 120 KB.
func base64Property() []byte {
	r := rand.New(rand.NewPCG(5, 6))
	data := make([]byte, 90000)
	for i := range data {
		data[i] = byte(r.IntN(256))
	}
	return []byte(`{"data":"` + base64.StdEncoding.EncodeToString(data) + `"}`)
}

func BenchmarkAppendString(b *testing.B) {
	s := string(base64Property())
	b.SetBytes(int64(len(s)))
	var out []byte
	for b.Loop() {
		out = AppendString(out[:0], s)
	}
}

func BenchmarkAppendIndentedRaw(b *testing.B) {
	raw := base64Property()
	b.SetBytes(int64(len(raw)))
	var out []byte
	for b.Loop() {
		out = AppendIndentedRaw(out[:0], raw, 3)
	}
}

// BenchmarkAppendStringProse writes prose of the kind CSV descriptions
// hold: lines of plain text, line breaks and now and then a quote.
func BenchmarkAppendStringProse(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 64<<10 {
		sb.WriteString("The operator manages the lifecycle of \"clusters\" on OpenShift and Kubernetes.\n")
		sb.WriteString("## Features\n* Install, upgrade and scale the service with a custom resource\n")
	}
	s := sb.String()
	b.SetBytes(int64(len(s)))
	var out []byte
	for b.Loop() {
		out = AppendString(out[:0], s)
	}
}

// Compact hands a Raw value's JSON back as it is, without a copy, in a
// slice that an append cannot write past.
func TestCompactRaw(t *testing.T) {
	v := Value{Kind: Raw, Str: string([]byte(`{"a":[1,"x"]}`))}
	got := Compact(&v)
	if string(got) != v.Str {
		t.Fatalf("Compact(Raw) = %s, want %s", got, v.Str)
	}
	if unsafe.SliceData(got) != unsafe.StringData(v.Str) {
		t.Error("Compact(Raw) copied the value's bytes")
	}
	if cap(got) != len(got) {
		t.Errorf("Compact(Raw) has room for %d bytes more, which an append would write into the value", cap(got)-len(got))
	}
}
