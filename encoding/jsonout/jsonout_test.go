package jsonout

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// result is a document of the shape commands write: nested objects,
// lists, numbers, strings that YAML would read as something else.
type result struct {
	Name     string            `json:"name"`
	Passed   bool              `json:"passed"`
	Count    int               `json:"count"`
	Ratio    float64           `json:"ratio"`
	Big      int64             `json:"big"`
	Labels   map[string]string `json:"labels,omitempty"`
	Problems []problem         `json:"problems"`
	Nothing  *problem          `json:"nothing"`
}

type problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

func TestWrite(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, map[string]any{"a": "<b>&", "n": []int{1}}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": \"<b>&\",\n  \"n\": [\n    1\n  ]\n}\n"
	if buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}
	if err := Write(&buf, math.Inf(1)); err == nil {
		t.Fatal("an infinite number was written")
	}
}

// WriteAs's YAML is sigs.k8s.io/yaml's of the JSON Write writes, byte for
// byte.
func TestWriteAsYAMLIsSigsYAMLs(t *testing.T) {
	docs := []any{
		result{Name: "etcd", Passed: true, Count: 3, Ratio: 0.5, Big: 1 << 53, Labels: map[string]string{"z": "yes", "a": "1.0", "on": "~", "k: v": "- x"},
			Problems: []problem{{File: "catalogs/v4.17/etcd/catalog.yaml", Line: 12, Message: "bundle \"etcd.v0.9.4\": \"replaces\" names\nno bundle: #1 'quoted' \u00e9 \t tab"}}},
		result{Problems: []problem{}},
		[]string{"", " lead", "trail ", "null", "true", "0x1F", "1e3", ".inf", "@at", "`tick", "%p", "a: b", "long " + strings.Repeat("word ", 30)},
		map[string]any{"nested": map[string]any{"list": []any{[]any{}, map[string]any{}, 1.25, -2.5, 1e21, nil}}},
		"just a string",
		12,
	}
	for _, d := range docs {
		var js, got bytes.Buffer
		if err := Write(&js, d); err != nil {
			t.Fatal(err)
		}
		want, err := yaml.JSONToYAML(js.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteAs(&got, "yaml", d); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(want) {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", js.String(), got.String(), want)
		}
		got.Reset()
		if err := WriteAs(&got, "json", d); err != nil || got.String() != js.String() {
			t.Errorf("json: got %q (%v), want %q", got.String(), err, js.String())
		}
	}
	if err := WriteAs(&bytes.Buffer{}, "yaml", math.NaN()); err == nil {
		t.Fatal("a NaN was written as YAML")
	}
}
