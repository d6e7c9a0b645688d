package value

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/fbcat/opm/position"
)

// members lists what ScanObject reports of data as key=raw lines.
func members(data string) (string, error) {
	var b strings.Builder
	err := ScanObject([]byte(data), func(key string, raw []byte) error {
		fmt.Fprintf(&b, "%s=%s\n", key, raw)
		return nil
	})
	return b.String(), err
}

func TestScanObject(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{}`, ""},
		{" \t\r\n{ } trailing", ""},
		{`{"apiVersion":"v1","kind":"Service","metadata":{"labels":{"a":"b"},"name":"etcd"},"spec":{"ports":[{"port":2379}]}}`,
			"apiVersion=\"v1\"\nkind=\"Service\"\nmetadata={\"labels\":{\"a\":\"b\"},\"name\":\"etcd\"}\nspec={\"ports\":[{\"port\":2379}]}\n"},
		{" {\n \"spec\": {\"x\": [1, 2.5e3, true, null, \"s\\\"}\"]},\n \"kind\" : \"CronJob\"\n}",
			"spec={\"x\": [1, 2.5e3, true, null, \"s\\\"}\"]}\nkind=\"CronJob\"\n"},
		// Repeated keys are all reported; keys are decoded.
		{`{"k\u0069nd":"A","kind":1}`, "kind=\"A\"\nkind=1\n"},
		{`{"e":"x\\","q":"\"","n":-1.5e3,"b":true,"x":null}`, "e=\"x\\\\\"\nq=\"\\\"\"\nn=-1.5e3\nb=true\nx=null\n"},
		// Scalars are only delimited, not checked.
		{`{"a":tru,"kind":"A"}`, "a=tru\nkind=\"A\"\n"},
	}
	for _, tt := range tests {
		got, err := members(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ScanObject(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestScanObjectMalformed(t *testing.T) {
	for _, bad := range []string{``, ` `, `[1]`, `"s"`, `{"kind":"A"`, `{"kind" "A"}`, `{"spec":{"x":[}`, `{"spec":"unterminated}`,
		`{"a":,"kind":"A"}`, `{"a":}`, `{a:1}`, `{"a":1 "b":2}`, `{"a"}`, `{"a":[1,2}`, `{"a":1,}`, `{"k\x":1}`, "{\"k\x01\":1}"} {
		_, err := members(bad)
		var se *position.Error
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "offset ") || se.Line != 0 {
			t.Errorf("ScanObject(%q): %v, want a syntax error with its offset", bad, err)
		}
	}
}

func TestScanObjectStops(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := ScanObject([]byte(`{"a":1,"b":2,"c":`), func(key string, raw []byte) error {
		n++
		if key == "b" {
			return stop
		}
		return nil
	})
	if err != stop || n != 2 {
		t.Errorf("got %v after %d members, want the member's error after 2", err, n)
	}
}

func TestRawString(t *testing.T) {
	for _, s := range []string{`""`, `"abc"`, `"a\"b\\c\/\n"`, `"\u00e9\ud83d\ude00"`, `"\ud83d"`, "\"\xff\"", `"é"`} {
		want, err := ParseJSON([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := RawString([]byte(s)); !ok || got != want.Str {
			t.Errorf("RawString(%q) = %q %v, want %q", s, got, ok, want.Str)
		}
	}
	for _, s := range []string{``, `"`, `abc`, `1`, `"a" `, `"a"b"`, `"\x"`, "\"\x01\"", `"\u12"`} {
		if got, ok := RawString([]byte(s)); ok {
			t.Errorf("RawString(%q) = %q, want not ok", s, got)
		}
	}
}

// bigObject is a CSV-like object: a few small members and a large spec
// (an icon and nested descriptors).
func bigObject() []byte {
	var b bytes.Buffer
	b.WriteString(`{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"etcd.v0.9.4","annotations":{"a":"b"}},"spec":{"icon":[{"base64data":"`)
	b.WriteString(strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAQAAAAEACAYAAABccqhm", 4000))
	b.WriteString(`","mediatype":"image/png"}],"customresourcedefinitions":{"owned":[`)
	for i := range 300 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"c%d.example.com","version":"v1","kind":"C%d","specDescriptors":[{"path":"size","x-descriptors":["urn:alm:descriptor:com.tectonic.ui:podCount"]}]}`, i, i)
	}
	b.WriteString(`]}}}`)
	return b.Bytes()
}

func BenchmarkScanObject(b *testing.B) {
	data := bigObject()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var kind string
		err := ScanObject(data, func(key string, raw []byte) error {
			if key == "kind" {
				kind, _ = RawString(raw)
			}
			return nil
		})
		if err != nil || kind != "ClusterServiceVersion" {
			b.Fatal(err, kind)
		}
	}
}

func BenchmarkScanObjectParseJSON(b *testing.B) {
	data := bigObject()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}

func TestStringEndAndSkipValue(t *testing.T) {
	for _, tt := range []struct {
		in  string
		end int
		ok  bool
	}{
		{`"abc",`, 5, true},
		{`"a\"b"x`, 6, true},
		{`"a\\"x`, 5, true},
		{`"a\\\"b"`, 8, true},
		{`"abc`, 4, false},
		{`"a\"`, 4, false},
	} {
		if end, ok := StringEnd([]byte(tt.in), 0); end != tt.end || ok != tt.ok {
			t.Errorf("StringEnd(%q) = %d, %v; want %d, %v", tt.in, end, ok, tt.end, tt.ok)
		}
	}
	for _, tt := range []struct {
		in  string
		end int
	}{
		{`x:"s\"}"}`, 8},
		{`x:{"a":[1,"]"]},`, 15},
		{`x:-1.5e3]`, 8},
		{`x:true `, 6},
	} {
		if end, err := SkipValue([]byte(tt.in), 2); err != nil || end != tt.end {
			t.Errorf("SkipValue(%q) = %d, %v; want %d", tt.in, end, err, tt.end)
		}
	}
	for _, bad := range []string{`x:`, `x:,`, `x:"abc`, `x:{"a":[1}`} {
		var se *position.Error
		if _, err := SkipValue([]byte(bad), 2); !errors.As(err, &se) {
			t.Errorf("SkipValue(%q): %v, want a syntax error", bad, err)
		}
	}
}

func TestAppendRawString(t *testing.T) {
	buf := []byte("kept:")
	for _, s := range []string{`""`, `"abc"`, `"a\"b\\c\/\n"`, `"\u00e9\ud83d\ude00"`, `"\ud83d"`, "\"\xff\"", `"é"`} {
		want, _ := RawString([]byte(s))
		got, ok := AppendRawString(buf, []byte(s))
		if !ok || string(got) != "kept:"+want {
			t.Errorf("AppendRawString(%q) = %q %v, want %q", s, got, ok, "kept:"+want)
		}
	}
	for _, s := range []string{``, `"`, `abc`, `"a" `, `"a"b"`, `"\x"`, "\"\x01\"", `"\u12"`} {
		if got, ok := AppendRawString(buf, []byte(s)); ok || string(got) != "kept:" {
			t.Errorf("AppendRawString(%q) = %q %v, want dst unchanged and false", s, got, ok)
		}
	}
}

// TestSkipValueRecording checks the objects and arrays a skip reports.
func TestSkipValueRecording(t *testing.T) {
	data := []byte(`{"a": [1, {"b": "}]"}], "c": {}} tail`)
	got := map[int]int{}
	end, err := SkipValueRecording(data, 0, func(start, end int) { got[start] = end })
	if err != nil || end != 32 {
		t.Fatalf("end %d, %v; want 32", end, err)
	}
	want := map[int]int{0: 32, 6: 22, 10: 21, 29: 31}
	if !maps.Equal(got, want) {
		t.Errorf("recorded %v, want %v", got, want)
	}
	if _, err := SkipValueRecording([]byte(`{"a": [1}`), 0, func(int, int) {}); err == nil {
		t.Error("unbalanced brackets skipped")
	}
}
