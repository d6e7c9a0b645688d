package value

import (
	"strings"
	"testing"
)

func TestRawFields(t *testing.T) {
	data := []byte(` { "description": "a \"long\" text \\ with } and ] inside", "installModes" : [{"type":"AllNamespaces","supported":true}],
	"n": -1.5e3, "b": true, "x": null, "nested": {"a": [1, {"b": "}"}]}, "installModes": [], "k\u0065y": "v", "e": "x\\", "q": "\"" } `)
	got, err := RawFields(data, "installModes", "n", "b", "x", "nested", "key", "e", "q", "absent")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"installModes": `[{"type":"AllNamespaces","supported":true}]`,
		"n":            `-1.5e3`, "b": `true`, "x": `null`,
		"nested": `{"a": [1, {"b": "}"}]}`,
		"key":    `"v"`, "e": `"x\\"`, "q": `"\""`,
	}
	if len(got) != len(want) {
		t.Errorf("got %d members, want %d: %q", len(got), len(want), got)
	}
	for k, v := range want {
		if string(got[k]) != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if got, err := RawFields([]byte(`{}`), "a"); err != nil || len(got) != 0 {
		t.Errorf("empty object: %v %v", got, err)
	}
	for _, bad := range []string{``, `[]`, `{"a"}`, `{"a":1`, `{"a":"x}`, `{"a":[1,2}`, `{"a":1 "b":2}`, `{"a":}`, `{a:1}`} {
		if _, err := RawFields([]byte(bad), "a"); err == nil || !strings.Contains(err.Error(), "offset") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
