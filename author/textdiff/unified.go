// Package textdiff writes unified diffs of texts (Myers' algorithm, three
// lines of context), and readable ones of catalogs, where an embedded
// bundle object or a CSV's metadata is summarised in a line: what the
// catalog verbs show of a plan before writing it. FirstDifference says
// where a text first differs from the one it should be, and how (a
// comment, white space, ...): where the verbs say a catalog drifted.
package textdiff

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
)

// diffContext is how many unchanged lines surround each hunk.
const diffContext = 3

// op is one line of an edit script.
type op struct {
	kind byte // ' ', '-' or '+'
	line []byte
	// show, when set, is what is printed instead of line; n, when set, is
	// how many lines of the file line stands for (see Readable).
	show []byte
	n    int
}

// text is what the diff prints for the op.
func (o op) text() []byte {
	if o.show != nil {
		return o.show
	}
	return o.line
}

// isGap says the op stands for lines left out of the diff (see
// differ.gap).
func (o op) isGap() bool { return o.line == nil }

// lines is how many lines of the file the op stands for.
func (o op) lines() int {
	return max(o.n, 1)
}

// Unified writes the unified diff of a file's old and new text
// (old nil: a new file) as `diff -u` and git write it.
func Unified(w io.Writer, name string, old, new []byte) error {
	return unified(w, name, old, new, commonEnds)
}

// endsFunc says how much of the start and end of two texts their diff
// leaves out: commonEnds, or noEnds for the plain diff tests compare
// with.
type endsFunc func(a, b []byte, unitStart func([]byte) bool) (pre, suf int)

func unified(w io.Writer, name string, old, new []byte, ends endsFunc) error {
	pre, suf := ends(old, new, anyLine)
	d := differ{a: splitLines(old[pre : len(old)-suf]), b: splitLines(new[pre : len(new)-suf])}
	d.gap(old[:pre])
	d.diff(0, len(d.a), 0, len(d.b))
	d.gap(old[len(old)-suf:])
	return writeUnified(w, name, old == nil, d.ops)
}

// anyLine says every line is a unit of its own (see commonEnds).
func anyLine([]byte) bool { return true }

// writeUnified writes a file's diff: the ---/+++ header (from /dev/null
// for a new file), then the hunks of ops, deletions first.
func writeUnified(w io.Writer, name string, created bool, ops []op) error {
	deletionsFirst(ops)
	from := "a/" + name
	if created {
		from = "/dev/null"
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "--- %s\n+++ b/%s\n", from, name)
	writeHunks(&buf, ops)
	_, err := w.Write(buf.Bytes())
	return err
}

// splitLines splits text into lines, each with its line end.
func splitLines(text []byte) [][]byte {
	lines := make([][]byte, 0, bytes.Count(text, []byte("\n"))+1)
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:i+1])
		text = text[i+1:]
	}
	return lines
}

// differ finds a shortest edit script between two lists of lines with
// Myers' algorithm in linear space: the middle snake of each part splits
// it in two smaller ones.
type differ struct {
	a, b [][]byte
	ops  []op
	// vf and vb are middleSnake's furthest points, kept for the next
	// call: each call reads only what it wrote.
	vf, vb []int
}

// gap appends an op that stands for the lines of text, which are the
// same in both files and too far from any change to be printed (see
// commonEnds).
func (d *differ) gap(text []byte) {
	if n := lineCount(text); n > 0 {
		d.ops = append(d.ops, op{kind: ' ', n: n})
	}
}

// lineCount is how many lines text has, the last maybe without its end.
func lineCount(text []byte) int {
	n := bytes.Count(text, []byte("\n"))
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

func (d *differ) emit(kind byte, lines [][]byte) {
	for _, l := range lines {
		d.ops = append(d.ops, op{kind: kind, line: l})
	}
}

// diff appends the edit script of a[a0:a1] to b[b0:b1].
func (d *differ) diff(a0, a1, b0, b1 int) {
	pre := 0
	for a0+pre < a1 && b0+pre < b1 && bytes.Equal(d.a[a0+pre], d.b[b0+pre]) {
		pre++
	}
	d.emit(' ', d.a[a0:a0+pre])
	a0, b0 = a0+pre, b0+pre
	suf := 0
	for a1-suf > a0 && b1-suf > b0 && bytes.Equal(d.a[a1-1-suf], d.b[b1-1-suf]) {
		suf++
	}
	ae, be := a1-suf, b1-suf
	switch {
	case a0 == ae:
		d.emit('+', d.b[b0:be])
	case b0 == be:
		d.emit('-', d.a[a0:ae])
	default:
		// Trimmed, the parts differ in their first and last lines, so at
		// least two edits apart: both halves are smaller.
		xs, ys, xe, ye := d.middleSnake(a0, ae, b0, be)
		d.diff(a0, xs, b0, ys)
		d.emit(' ', d.a[xs:xe])
		d.diff(xe, ae, ye, be)
	}
	d.emit(' ', d.a[ae:a1])
}

// middleSnake searches from both ends of a[a0:a1] and b[b0:b1] at once
// and returns the snake (a run of equal lines, maybe empty) where the
// searches meet, from (xs, ys) to (xe, ye), on a shortest edit path.
func (d *differ) middleSnake(a0, a1, b0, b1 int) (xs, ys, xe, ye int) {
	n, m := a1-a0, b1-b0
	delta := n - m
	odd := delta&1 != 0
	off := (n+m+1)/2 + abs(delta) + 2
	if len(d.vf) < 2*off+1 {
		d.vf, d.vb = make([]int, 2*off+1), make([]int, 2*off+1)
	}
	vf := d.vf // furthest x on each diagonal k = x-y, forward
	vb := d.vb // least x on each diagonal, backward
	vf[off+1] = 0
	vb[off+delta-1] = n
	eq := func(x, y int) bool { return bytes.Equal(d.a[a0+x], d.b[b0+y]) }
	for D := 0; D <= (n+m+1)/2; D++ {
		for k := -D; k <= D; k += 2 {
			var x int
			if k == -D || (k != D && vf[off+k-1] < vf[off+k+1]) {
				x = vf[off+k+1]
			} else {
				x = vf[off+k-1] + 1
			}
			y := x - k
			sx, sy := x, y
			for x < n && y < m && eq(x, y) {
				x, y = x+1, y+1
			}
			vf[off+k] = x
			if odd && k >= delta-(D-1) && k <= delta+(D-1) && x >= vb[off+k] {
				return a0 + sx, b0 + sy, a0 + x, b0 + y
			}
		}
		for k := delta - D; k <= delta+D; k += 2 {
			var x int
			if k == delta+D || (k != delta-D && vb[off+k-1] < vb[off+k+1]-1) {
				x = vb[off+k-1]
			} else {
				x = vb[off+k+1] - 1
			}
			y := x - k
			ex, ey := x, y
			for x > 0 && y > 0 && eq(x-1, y-1) {
				x, y = x-1, y-1
			}
			vb[off+k] = x
			if !odd && k >= -D && k <= D && x <= vf[off+k] {
				return a0 + x, b0 + y, a0 + ex, b0 + ey
			}
		}
	}
	panic("author: no middle snake") // unreachable: the searches meet by then
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// deletionsFirst orders each run of changed lines as diff does: the
// removed lines, then the added ones.
func deletionsFirst(ops []op) {
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != ' ' {
			j++
		}
		slices.SortStableFunc(ops[i:j], func(x, y op) int { return cmp.Compare(y.kind, x.kind) })
		i = j
	}
}

// writeHunks writes the changed parts of an edit script with their
// context, as "@@ -l,s +l,s @@" hunks.
func writeHunks(buf *bytes.Buffer, ops []op) {
	for _, h := range hunkRanges(ops) {
		writeHunk(buf, ops, h[0], h[1])
	}
}

// hunkRanges are the hunks of an edit script, each the ops from its
// first to past its last: the changed lines with their context.
func hunkRanges(ops []op) [][2]int {
	var out [][2]int
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		out = append(out, [2]int{start, end})
		i = end
	}
	return out
}

// writeHunk writes ops[start:end] as one hunk.
func writeHunk(buf *bytes.Buffer, ops []op, start, end int) {
	aLine, bLine := 1, 1
	for _, o := range ops[:start] {
		if o.kind != '+' {
			aLine += o.lines()
		}
		if o.kind != '-' {
			bLine += o.lines()
		}
	}
	aLen, bLen := 0, 0
	for _, o := range ops[start:end] {
		if o.kind != '+' {
			aLen += o.lines()
		}
		if o.kind != '-' {
			bLen += o.lines()
		}
	}
	if aLen == 0 {
		aLine--
	}
	if bLen == 0 {
		bLine--
	}
	fmt.Fprintf(buf, "@@ -%d,%d +%d,%d @@\n", aLine, aLen, bLine, bLen)
	for _, o := range ops[start:end] {
		text := o.text()
		buf.WriteByte(o.kind)
		buf.Write(text)
		if len(text) == 0 || text[len(text)-1] != '\n' {
			buf.WriteString("\n\\ No newline at end of file\n")
		}
	}
}
