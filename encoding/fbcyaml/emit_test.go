package fbcyaml

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/fbcat/opm/encoding/value"
)

// oracle is what upstream does to write a blob as YAML.
// It returns nil where upstream fails: go-yaml refuses control characters
// such as DEL and simple keys longer than 1024 characters.
func oracle(t testing.TB, v *value.Value) []byte {
	t.Helper()
	js := value.AppendCompact(nil, v)
	out, err := yaml.JSONToYAML(js)
	if err != nil {
		if strings.Contains(err.Error(), "control characters") || strings.Contains(err.Error(), "did not find expected ',' or '}'") {
			return nil
		}
		t.Fatalf("JSONToYAML(%s): %v", js, err)
	}
	return out
}

var tricky = []string{
	"", " ", "a", "yes", "No", "on", "~", "null", "true", "1", "-1", "0x1F", "0o17", "1_000", "1e3", ".5", ".inf", "-.Inf", ".nan",
	"2021-01-01", "2021-1-1 10:00:00", "12:30", "1:20:30.5", "<<", "-", "- a", "? x", "?x", ":x", "a: b", "a:b", "a #b", "a#b",
	"#c", "'q'", "\"dq\"", "back\\slash", "tab\there", "line\nbreak", "trail\n", "two\n\n", "\n", "\nlead", " lead", "trail ",
	"sp \nbr", "a\n b", "---", "...", "--- x", "é", "日本", "emoji 😀", "\u2028", "\u0085x", "\u00a0nb", "\x7f", "\x1b", "\ufeffbom",
	">=1.0.0 <2.0.0", "<2.0.0", "quay.io/x/y@sha256:abc", "[a]", "{b}", "a,b", "*ref", "&anc", "!tag", "%p", "@at", "`bt",
	"|", ">", "0", "00", "012", "-0", "+1", "0b101", "-0b11", "1.5e+3", "1e", "9223372036854775808", "18446744073709551616",
	"x\r\ny", "\r", "a\tb", "a  b", "k:\n  v",
}

func randomString(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return tricky[r.IntN(len(tricky))]
	case 1:
		var b strings.Builder
		for n := r.IntN(40); n > 0; n-- {
			b.WriteString(tricky[r.IntN(len(tricky))])
			if r.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		return b.String()
	case 2:
		words := []string{"the", "operator", "manages", "a", "cluster", "of", "things", "x", "averyveryverylongwordthatdoesnotfitanywhereatallreally", " ", "  "}
		var b strings.Builder
		for n := r.IntN(60); n > 0; n-- {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(" \n"[r.IntN(10)/9])
		}
		return b.String()
	}
	const alphabet = "ab0 9:-#\n'\"\\\t.,[]{}é😀\u0085\u2028"
	rs := []rune(alphabet)
	var b strings.Builder
	for n := r.IntN(12); n > 0; n-- {
		b.WriteRune(rs[r.IntN(len(rs))])
	}
	return b.String()
}

func randomValue(r *rand.Rand, depth int) value.Value {
	k := r.IntN(7)
	if depth > 4 {
		k = r.IntN(4)
	}
	switch k {
	case 0:
		return value.Value{Kind: value.Null}
	case 1:
		return value.Value{Kind: value.Bool, Bool: r.IntN(2) == 0}
	case 2:
		nums := []float64{0, 1, -1, 2.5, 1e21, 1e20, 1e19, 1e-7, 0.000001, 123456789, 12345678901234567890, -0.5, 3.14159}
		return value.Value{Kind: value.Number, Num: nums[r.IntN(len(nums))]}
	case 3:
		return value.Value{Kind: value.String, Str: randomString(r)}
	case 4:
		v := value.Value{Kind: value.Array, Items: []value.Value{}}
		for n := r.IntN(4); n > 0; n-- {
			v.Items = append(v.Items, randomValue(r, depth+1))
		}
		return v
	default:
		v := value.Value{Kind: value.Object, Fields: []value.Field{}}
		for n := r.IntN(5); n > 0; n-- {
			key := randomString(r)
			if r.IntN(3) > 0 {
				key = []string{"a", "b", "name", "schema", "a10", "a9", "A2", "_z", "9", "10", "é", "x-descriptors", "a02", "a-1", "a.2"}[r.IntN(15)]
			}
			v.Fields = append(v.Fields, value.Field{Key: key, Value: randomValue(r, depth+1)})
		}
		v.Fields = value.NormalizeFields(v.Fields)
		return v
	}
}

func TestAppendDocumentMatchesGoYAML(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		v := randomValue(r, 0)
		if v.Kind != value.Object {
			v = value.Value{Kind: value.Object, Fields: []value.Field{{Key: "k", Value: v}}}
		}
		want := oracle(t, &v)
		if want == nil || !transitiveKeys(&v) {
			continue
		}
		got := AppendDocument(nil, &v)
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: %s\n--- got\n%s\n--- want\n%s", i, value.AppendCompact(nil, &v), got, want)
		}
	}
}

func TestAppendDocumentStrings(t *testing.T) {
	for _, s := range tricky {
		for _, prefix := range []string{"", strings.Repeat("word ", 17)} {
			v := value.Value{Kind: value.Object, Fields: []value.Field{
				{Key: "a", Value: value.Value{Kind: value.String, Str: prefix + s}},
				{Key: "l", Value: value.Value{Kind: value.Array, Items: []value.Value{{Kind: value.String, Str: prefix + s}}}},
			}}
			want := oracle(t, &v)
			if want == nil {
				continue
			}
			if got := AppendDocument(nil, &v); !bytes.Equal(got, want) {
				t.Errorf("%q:\n--- got\n%s\n--- want\n%s", prefix+s, got, want)
			}
		}
	}
}

func TestKeyLess(t *testing.T) {
	want := []string{"_z", "9", "10", "A2", "B", "Zz", "a", "a-1", "a.2", "a02", "a9", "a10", "c", "schema", "é"}
	for i := range want {
		for j := range want {
			if got := keyLess(want[i], want[j]); got != (i < j) {
				t.Errorf("keyLess(%q, %q) = %v", want[i], want[j], got)
			}
		}
	}
}

// transitiveKeys reports whether go-yaml's key comparison is a strict order
// on every object of v. It is not always ("10" < "1e" < "9" < "10"), and then
// upstream's output depends on Go's random map order.
func transitiveKeys(v *value.Value) bool {
	for i := range v.Items {
		if !transitiveKeys(&v.Items[i]) {
			return false
		}
	}
	for i := range v.Fields {
		if !transitiveKeys(&v.Fields[i].Value) {
			return false
		}
		for j := range v.Fields {
			for k := range v.Fields {
				a, b, c := v.Fields[i].Key, v.Fields[j].Key, v.Fields[k].Key
				if keyLess(a, b) && keyLess(b, c) && !keyLess(a, c) {
					return false
				}
			}
		}
	}
	return true
}

func TestIsYAMLFloat(t *testing.T) {
	re := regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	for _, s := range []string{"", "1", "+1", "-", ".", ".5", "1.", "1.5", "1e3", "1E+3", "1e", "1e+", ".e3", "-.5e-3", "1.2.3", "0x1", "1_0", "+.", "1e3x", "--1"} {
		if got, want := isYAMLFloat(s), re.MatchString(s); got != want {
			t.Errorf("isYAMLFloat(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestAppendJSONText checks text that exercises the writers' runs: words
// of every length with multi-byte characters (columns count characters),
// quotes, indicators and line breaks, at several depths (indentation
// moves where lines fold).
func TestAppendJSONText(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "bc", "déf", "日本語", "😀", "'", "\"", ":", "#", "\\", "x-y", "1.5", "base64+/=", "\u00a0", "ẞ"}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for n := r.IntN(60); n > 0; n-- {
			for k := r.IntN(12); k >= 0; k-- {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			b.WriteByte(" \n "[r.IntN(3)])
		}
		v := value.Value{Kind: value.String, Str: b.String()}
		for d := r.IntN(4); d > 0; d-- {
			v = value.Value{Kind: value.Object, Fields: []value.Field{{Key: "k", Value: value.Value{Kind: value.Array, Items: []value.Value{v}}}}}
		}
		v = value.Value{Kind: value.Object, Fields: []value.Field{{Key: "key", Value: v}}}
		want := oracle(t, &v)
		if want == nil {
			continue
		}
		if got := AppendDocument(nil, &v); !bytes.Equal(got, want) {
			t.Fatalf("%s\n--- got\n%s\n--- want\n%s", value.AppendCompact(nil, &v), got, want)
		}
	}
}

// TestAppendJSONInput checks what the emitter reads: white space between
// tokens, repeated keys (the last wins, as in a map), escapes, long base64
// scalars; and that what is not JSON is an error.
func TestAppendJSONInput(t *testing.T) {
	long := strings.Repeat("eyJhcGlWZXJzaW9uIjoidjEiLCJraW5kIjoiU2VydmljZSJ9+/==", 400)
	for _, js := range []string{
		`{"a":[1,2,{}],"b":{"c":null,"d":true,"e":false},"f":[]}`,
		" {\n\t\"b\" : [ 1 , -2.5e3 ] ,\r\n \"a\" : \"x\" } ",
		`{"a":1,"b":2,"a":3}`,
		`{"z":"\u00e9\n\ttab \"q\" \\ 😀","y":"\u2028"}`,
		`{"data":"` + long + `"}`,
		`{"a10":1,"a9":2,"A":3,"_":4,"10":5,"9":6}`,
		`{"n":[0,-0,1e21,1E-7,123456789012345678901234567890,0.1]}`,
		// In go-yaml's order, written as they come, around and inside
		// objects that are not.
		`{"a":{"b":1,"a":2},"c":[{"y":1,"x":{"p":"q","o":[{"m":1,"n":2}]}}],"d":{"a2":1,"a10":2}}`,
		`{"b":{"x":1,"y":{"k":"v"}},"a":{"x":1,"y":{"k":"v"}}}`,
		`{"k":"` + strings.Repeat("x", 200) + `","` + strings.Repeat("y", 200) + `":{"a":1}}`,
	} {
		want, err := yaml.JSONToYAML([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendJSON(nil, []byte(js))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%.80s: %v\n--- got\n%.400s\n--- want\n%.400s", js, err, got, want)
		}
	}
	for _, js := range []string{``, `{`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[1 2]`, `"abc`, `{"a":1}x`, `nul`, `01`, `-`, `1.`, `{a:1}`, `{"a":tru}`, `{"a":{"b":{"c":[1,}}}}`, `{"a":{"b":1,"c":2,}}`, `{"a":{"b":1}`} {
		if out, err := AppendJSON([]byte("keep"), []byte(js)); err == nil || string(out) != "keep" {
			t.Errorf("%q: got %q, %v; want an error and dst unchanged", js, out, err)
		}
	}
}

func BenchmarkAppendJSON(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	data := make([]byte, 90000)
	for i := range data {
		data[i] = byte(r.IntN(256))
	}
	desc := strings.Repeat("A description of what the operator manages, with words of every length.\n\n* a list\n", 40)
	js := []byte(`{"schema":"olm.bundle","properties":[{"type":"olm.bundle.object","value":{"data":"` +
		base64.StdEncoding.EncodeToString(data) + `"}},{"type":"olm.csv.metadata","value":{"description":` + strconv.Quote(desc) + `}}]}`)
	b.SetBytes(int64(len(js)))
	var out []byte
	for b.Loop() {
		out, _ = AppendJSON(out[:0], js)
	}
}

// TestStringEscapes checks the emitter's reading of JSON strings against
// the JSON parser's.
func TestStringEscapes(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	pieces := []string{`a`, `é`, `\n`, `\"`, `\\`, `\/`, `\b`, `\f`, `\r`, `\t`, `\u00e9`, `\u2028`, `\ud83d\ude00`, `\ud800`, `\udc00`, `\ud800\u0041`, `\ud800\n`, `\uD83D\uDE00`, "\xff", `\u0000`}
	for i := 0; i < 5000; i++ {
		var b strings.Builder
		b.WriteByte('"')
		for n := r.IntN(8); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		b.WriteByte('"')
		js := b.String()
		want, err := value.ParseJSON([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		e := emitter{js: js, raw: []byte(js)}
		got, end, err := e.str(0)
		if err != nil || end != len(js) || value.ValidUTF8(got) != want.Str {
			t.Fatalf("%s: got %q (%d, %v), want %q", js, got, end, err, want.Str)
		}
	}
	for _, js := range []string{`"\x"`, `"\u12"`, `"\u12g4"`, `"\`} {
		if _, _, err := (&emitter{js: js, raw: []byte(js)}).str(0); err == nil {
			t.Errorf("%s: no error", js)
		}
	}
}
