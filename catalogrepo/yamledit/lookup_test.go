package yamledit

import (
	"slices"
	"testing"
)

// String and Strings read a mapping's scalars and lists of scalars;
// anything else (another kind of node, no such key, no mapping) reads as
// nothing.
func TestStringAndStrings(t *testing.T) {
	f, err := Parse("t.yaml", []byte("name: a\nskips: [b, c]\nmap: {x: 1}\nStable: d\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := f.Root()
	if got := String(m, "name"); got != "a" {
		t.Errorf("String(name) = %q", got)
	}
	for _, key := range []string{"skips", "map", "stable", "none"} {
		if got := String(m, key); got != "" {
			t.Errorf("String(%s) = %q, want none", key, got)
		}
	}
	if got := Strings(m, "skips"); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("Strings(skips) = %q", got)
	}
	if got := Strings(m, "name"); got != nil {
		t.Errorf("Strings of a scalar = %q", got)
	}
	if got := String(nil, "name"); got != "" {
		t.Errorf("String of no mapping = %q", got)
	}
}
