package textdiff

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// lcs is the length of the longest common subsequence, the slow way.
func lcs(a, b [][]byte) int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if bytes.Equal(a[i], b[j]) {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t[0][0]
}

func lines(s string) [][]byte {
	var out [][]byte
	for _, r := range s {
		out = append(out, []byte(string(r)+"\n"))
	}
	return out
}

// TestDiffIsShortest checks on random texts that the edit script turns
// a into b and is as short as the longest common subsequence allows.
func TestDiffIsShortest(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := "abcde"
	gen := func() string {
		n := rng.Intn(30)
		var sb strings.Builder
		for range n {
			sb.WriteByte(alphabet[rng.Intn(len(alphabet))])
		}
		return sb.String()
	}
	for i := 0; i < 3000; i++ {
		a, b := lines(gen()), lines(gen())
		d := differ{a: a, b: b}
		d.diff(0, len(a), 0, len(b))
		var gotA, gotB [][]byte
		edits := 0
		for _, o := range d.ops {
			if o.kind != '+' {
				gotA = append(gotA, o.line)
			}
			if o.kind != '-' {
				gotB = append(gotB, o.line)
			}
			if o.kind != ' ' {
				edits++
			}
		}
		if !bytes.Equal(bytes.Join(gotA, nil), bytes.Join(a, nil)) || !bytes.Equal(bytes.Join(gotB, nil), bytes.Join(b, nil)) {
			t.Fatalf("script does not turn %q into %q", a, b)
		}
		if want := len(a) + len(b) - 2*lcs(a, b); edits != want {
			t.Fatalf("%q -> %q: %d edits, shortest is %d", a, b, edits, want)
		}
	}
}

func TestUnified(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	new := "a\nb\nc\nd\nE\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	var buf bytes.Buffer
	if err := Unified(&buf, "x.yaml", []byte(old), []byte(new)); err != nil {
		t.Fatal(err)
	}
	want := `--- a/x.yaml
+++ b/x.yaml
@@ -2,7 +2,7 @@
 b
 c
 d
-e
+E
 f
 g
 h
@@ -11,3 +11,4 @@
 k
 l
 m
+n
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	_ = Unified(&buf, "new.yaml", nil, []byte("x\ny"))
	if want := "--- /dev/null\n+++ b/new.yaml\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n"; buf.String() != want {
		t.Errorf("new file:\n%s", buf.String())
	}
}
