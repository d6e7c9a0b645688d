package fbcyaml

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// splitOracle is upstream's YAMLReader: lines from bufio.Reader.ReadLine,
// "---" lines end documents.
func splitOracle(data []byte) ([]string, error) {
	r := bufio.NewReader(bytes.NewReader(data))
	readLine := func() ([]byte, error) {
		var buf bytes.Buffer
		for {
			line, isPrefix, err := r.ReadLine()
			buf.Write(line)
			if !isPrefix || err != nil {
				buf.WriteByte('\n')
				return buf.Bytes(), err
			}
		}
	}
	var docs []string
	for {
		var buf bytes.Buffer
		for {
			line, err := readLine()
			if err != nil && err != io.EOF {
				return docs, err
			}
			if bytes.HasPrefix(line, []byte("---")) {
				trimmed := strings.TrimSpace(string(line[3:]))
				if len(trimmed) > 0 && trimmed[0] != '#' {
					return docs, errors.New("separator")
				}
				if buf.Len() != 0 {
					docs = append(docs, buf.String())
					goto next
				}
				if err == io.EOF {
					return docs, nil
				}
			}
			if err == io.EOF {
				if buf.Len() != 0 {
					docs = append(docs, buf.String())
				}
				return docs, nil
			}
			buf.Write(line)
		}
	next:
	}
}

var splitSamples = []string{
	"", "\n\n", "a: 1\n", "a: 1", "---\na: 1\n---\nb: 2\n", "a: 1\n---\n", "a\n---\n   \n", "a\n---\n---\nb", "a\n---\n\n---\nb",
	"---\n", "---\n---\n", "a\r\nb\r\n---\r\nc", "a\rb\n", "x\r", "--- # c\na\n", "--- foo\n", "a\n--- x\n", "----\n", "a\n...\nb\n",
}

func TestSplitDocumentsMatchesUpstream(t *testing.T) {
	for _, s := range splitSamples {
		checkSplit(t, []byte(s))
	}
}

func checkSplit(t *testing.T, data []byte) {
	t.Helper()
	want, werr := splitOracle(data)
	docs, err := SplitDocuments(data, 1)
	var got []string
	for _, d := range docs {
		got = append(got, string(d.Data))
	}
	if err != nil && werr != nil && len(got) == len(want)+1 {
		// Unlike upstream, the document before a bad separator is kept,
		// so that its own problems are reported too.
		got = got[:len(want)]
	}
	if (err != nil) != (werr != nil) || !slices.Equal(got, want) {
		t.Fatalf("SplitDocuments(%q) = %q, %v; upstream %q, %v", data, got, err, want, werr)
	}
	// Each document knows where it is: its bytes in the stream, the line
	// they start on, and DecodeDocument's view of them is Data.
	end := 0
	for _, d := range docs {
		if d.Off < end || d.End < d.Off || d.End > len(data) {
			t.Fatalf("SplitDocuments(%q): document at %d to %d after %d", data, d.Off, d.End, end)
		}
		end = d.End
		if line := int32(1 + bytes.Count(data[:d.Off], []byte{'\n'})); d.Line != line {
			t.Fatalf("SplitDocuments(%q): document at offset %d says line %d, is on %d", data, d.Off, d.Line, line)
		}
		if n := normalize(data[d.Off:d.End]); !bytes.Equal(n, d.Data) {
			t.Fatalf("SplitDocuments(%q): document %q, its bytes normalise to %q", data, d.Data, n)
		}
	}
	var se *position.Error
	if err != nil && (!errors.As(err, &se) || se.Line < 1 || se.Line > 1+bytes.Count(data, []byte{'\n'})) {
		t.Fatalf("SplitDocuments(%q): error %#v, want a separator error on a line of the stream", data, err)
	}
}

func FuzzSplitDocuments(f *testing.F) {
	if testing.Short() {
		f.Skip("the seed corpus runs in make test-full")
	}
	for _, s := range splitSamples {
		f.Add([]byte(s))
	}
	for _, data := range seedFiles(f, yamlSeedFiles...) {
		if len(data) <= 3000 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 3000 {
			return // bufio's line buffer splits long lines; both join them
		}
		checkSplit(t, data)
	})
}

// TestNextSeparatorEveryOffset holds nextSeparator to its rule (the first
// line at or after off that starts with "---") on text made of the bytes
// that matter, at every offset after a line break.
func TestNextSeparatorEveryOffset(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"\n", "-", "---", "\n---", "a", "- x", "\n-", "--", " "}
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := r.IntN(30); k > 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		data := []byte(b.String())
		for off := 0; off <= len(data); off++ {
			if off > 0 && data[off-1] != '\n' {
				continue
			}
			want := len(data)
			for l := off; l < len(data); l++ {
				if (l == off || data[l-1] == '\n') && bytes.HasPrefix(data[l:], []byte("---")) {
					want = l
					break
				}
			}
			if got := nextSeparator(data, off); got != want {
				t.Fatalf("nextSeparator(%q, %d) = %d, want %d", data, off, got, want)
			}
		}
	}
}

// BenchmarkSplitReal splits every YAML file of the catalog
// $OPM_BENCH_CATALOG names into documents and runs the fast path's byte
// check on each, what every YAML catalog file is put through before its
// documents are parsed, and decodes the documents as validate does
// (trees) and as render does (compacting property values), each also in
// an Arena reset after every document, as the catalog walk decodes them.
func BenchmarkSplitReal(b *testing.B) {
	files := realYAMLFiles(b)
	var n int64
	for _, f := range files {
		n += int64(len(f))
	}
	b.Run("split", func(b *testing.B) {
		b.SetBytes(n)
		for b.Loop() {
			for _, f := range files {
				_, _ = SplitDocuments(f, 1)
			}
		}
	})
	var docs []Doc
	for _, f := range files {
		d, _ := SplitDocuments(f, 1)
		docs = append(docs, d...)
	}
	for _, c := range []struct {
		name   string
		decode func([]byte, int32) (value.Value, []value.Duplicate, error)
	}{{"trees", DecodeWithDuplicates}, {"compacting", DecodeCompactingProperties}, {"trees-arena", inArena(DecodeWithDuplicatesIn)}, {"compacting-arena", inArena(DecodeCompactingPropertiesIn)}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(n)
			for b.Loop() {
				for _, d := range docs {
					_, _, _ = c.decode(d.Data, d.Line)
				}
			}
		})
	}
	b.Run("split+check", func(b *testing.B) {
		b.SetBytes(n)
		for b.Loop() {
			for _, f := range files {
				docs, _ := SplitDocuments(f, 1)
				for _, d := range docs {
					fastSafe(d.Data)
				}
			}
		}
	})
}

// inArena decodes documents one after another in one Arena, as a catalog
// walk's worker does.
func inArena(decode func([]byte, int32, *Arena) (value.Value, []value.Duplicate, error)) func([]byte, int32) (value.Value, []value.Duplicate, error) {
	a := &Arena{Values: true}
	return func(doc []byte, line int32) (value.Value, []value.Duplicate, error) {
		defer a.Reset()
		return decode(doc, line, a)
	}
}
