package yamledit

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// lineDiff shows the lines of want and got around their first difference.
func lineDiff(want, got string) string {
	w, g := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-3)
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d\n--- want\n", i+1)
	for _, l := range w[from:min(len(w), i+4)] {
		fmt.Fprintf(&b, "  %q\n", l)
	}
	b.WriteString("--- got\n")
	for _, l := range g[from:min(len(g), i+4)] {
		fmt.Fprintf(&b, "  %q\n", l)
	}
	return b.String()
}

// editCase is one table case: edits made on a parsed input, and the text
// Bytes must return, or a substring of the error the edits or Bytes give.
type editCase struct {
	name string
	in   string
	edit func(t *testing.T, f *File) error
	want string
	err  string
}

func runCases(t *testing.T, cases []editCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("t.yaml", []byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			err = c.edit(t, f)
			var got []byte
			if err == nil {
				got, err = f.Bytes()
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one with %q; text:\n%s", err, c.err, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("%s\n--- got in full:\n%s", lineDiff(c.want, string(got)), got)
			}
		})
	}
}

// node follows a path of keys (string) and indexes (int) from the root.
func node(t *testing.T, f *File, path ...any) *yaml.Node {
	t.Helper()
	n := f.Root()
	for _, p := range path {
		switch x := p.(type) {
		case string:
			_, v := Lookup(n, x)
			if v == nil {
				t.Fatalf("no key %q at line %d", x, n.Line)
			}
			n = v
		case int:
			if n.Kind != yaml.SequenceNode || x >= len(n.Content) {
				t.Fatalf("no item %d at line %d", x, n.Line)
			}
			n = n.Content[x]
		}
	}
	return n
}

// appendTo appends v to the sequence at path.
func appendTo(v any, path ...any) func(t *testing.T, f *File) error {
	return func(t *testing.T, f *File) error { return f.Append(node(t, f, path...), v) }
}

// crlf turns LF line ends into CRLF.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// bundle is the olm.bundle item a release appends.
func bundle(image string) Map { return Map{{"schema", "olm.bundle"}, {"image", image}} }

// entry is the channel entry a release appends.
func chEntry(name, replaces string) Map { return Map{{"name", name}, {"replaces", replaces}} }
