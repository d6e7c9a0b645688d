package yamledit

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// releases holds real release commits of community-operators-prod: the
// templates before and after the release bot added a bundle.
const releases = "../../../shared/conformance/releases"

// TestReleaseReplay reproduces every after/ template of the release cases
// byte for byte from its before/ template, with the edits the release
// made: the sequences that grew get their new items appended.
func TestReleaseReplay(t *testing.T) {
	befores, _ := filepath.Glob(filepath.Join(releases, "*", "before", "operators", "*", "catalog-templates", "*"))
	if len(befores) == 0 {
		t.Skip("no release cases at " + releases)
	}
	for _, before := range befores {
		rel, _ := filepath.Rel(releases, before)
		t.Run(rel, func(t *testing.T) {
			sep := string(filepath.Separator)
			after := strings.Replace(before, sep+"before"+sep, sep+"after"+sep, 1)
			replay(t, before, after)
		})
	}
}

func replay(t *testing.T, before, after string) {
	t.Helper()
	src, err := os.ReadFile(before)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(after)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(before, src)
	if err != nil {
		t.Fatal(err)
	}
	var a yaml.Node
	if err := yaml.Unmarshal(want, &a); err != nil {
		t.Fatal(err)
	}
	n := appendGrowth(t, f, f.Root(), a.Content[0])
	if n == 0 {
		t.Fatal("the release changed nothing in this template")
	}
	got, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%d appends: the result differs from %s:\n%s", n, after, lineDiff(string(want), string(got)))
	}
}

// appendGrowth walks two trees in step and appends to b's sequences the
// items a has beyond them; any other difference fails the test. It returns
// the number of appends.
func appendGrowth(t *testing.T, f *File, b, a *yaml.Node) int {
	t.Helper()
	if b.Kind != a.Kind || len(b.Content) > len(a.Content) || (b.Kind == yaml.ScalarNode && b.Value != a.Value) {
		t.Fatalf("line %d: the release changed more than appending items", b.Line)
	}
	n := 0
	if b.Kind == yaml.MappingNode && len(b.Content) != len(a.Content) {
		t.Fatalf("line %d: the release added keys", b.Line)
	}
	for i := range b.Content {
		n += appendGrowth(t, f, b.Content[i], a.Content[i])
	}
	for _, extra := range a.Content[len(b.Content):] {
		if err := f.Append(b, nodeValue(t, extra)); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// nodeValue turns a parsed node into a value to write, keeping key order.
func nodeValue(t *testing.T, n *yaml.Node) any {
	t.Helper()
	switch n.Kind {
	case yaml.MappingNode:
		var m Map
		for i := 0; i+1 < len(n.Content); i += 2 {
			m = append(m, KV{n.Content[i].Value, nodeValue(t, n.Content[i+1])})
		}
		return m
	case yaml.SequenceNode:
		var l []any
		for _, c := range n.Content {
			l = append(l, nodeValue(t, c))
		}
		return l
	}
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool":
		return n.Value == "true"
	case "!!int":
		i, err := strconv.Atoi(n.Value)
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	return n.Value
}
