package textdiff

import (
	"strings"
	"testing"
)

func TestFirstDifference(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		line     int
		what     string
	}{
		{"a\n# c\nb\n", "a\nb\n", 2, `a comment the template does not render ("# c")`},
		{"a\nb # c\n", "a\nb\n", 2, `a comment the template does not render ("# c")`},
		{"a\nb#c\n", "a\nb\n", 2, `the template renders "b" here`},
		{"a\n  b\n", "a\nb\n", 2, "white space the template does not render"},
		{"a\n\nb\n", "a\nb\n", 2, "a blank line the template does not render"},
		{"a\n", "a\nb\n", 2, `the text ends here, where the template renders "b"`},
		{"a\nb\n", "a\n", 2, `"b" after the end of what the template renders`},
		{"a\n\n", "a\n", 2, "a blank line after the end of what the template renders"},
		{"a\n# end\n", "a\n", 2, `a comment ("# end") after the end of what the template renders`},
		{"a\r\nb\r\n", "a\nb\n", 0, `the template renders "" here`},
		{"x: " + strings.Repeat("é", 70) + "\n", "x: y\n", 1, `the template renders "x: y" here`},
	} {
		f := FirstDifference([]byte(tc.old), []byte(tc.new))
		if what := f.What("the template", "render"); f.Line != tc.line || what != tc.what {
			t.Errorf("FirstDifference(%q, %q) = %d, %q; want %d, %q", tc.old, tc.new, f.Line, what, tc.line, tc.what)
		}
	}
	if q := Quote(strings.Repeat("é", 70)); q != `"`+strings.Repeat("é", 57)+`..."` {
		t.Errorf("Quote cut to %s", q)
	}
}
