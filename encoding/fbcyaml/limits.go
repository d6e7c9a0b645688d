package fbcyaml

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/fbcat/opm/position"
)

// What a document may make of itself. A hostile document must cost time
// and memory in proportion to its size: nesting is capped where go-yaml
// caps it (value.MaxDepth), and so is what aliases expand to.

// expansionLimit is the largest tree, in bytes of text plus one per node,
// that a document of n bytes may decode to: twice its size plus 16 MiB.
// Without aliases a document never comes near it; with them, a document
// may repeat values, but not grow a thousandfold.
func expansionLimit(n int) int { return 2*n + 16<<20 }

var errExpansion = errors.New("aliases expand this document to more than twice its size plus 16 MiB; write the repeated values out instead of aliasing them so many times")

// binaryAliasRisk reports whether go-yaml could expand a document beyond
// the limit before the tree reaches the converter: it decodes a !!binary
// value anew for every alias of it, so one large value aliased many times
// costs memory in proportion to their product. It looks at the tokens of
// the text: a tag that may be binary (spelled out, or through a %TAG
// directive or a %-escape) together with more aliases than the limit can
// take copies of the whole document.
func binaryAliasRisk(doc []byte) bool {
	if bytes.IndexByte(doc, '*') < 0 || bytes.IndexByte(doc, '!') < 0 {
		return false
	}
	aliases, binaryTag := 0, false
	for i := 0; i < len(doc); i++ {
		if i > 0 && !tokenBoundary[doc[i-1]] {
			continue
		}
		switch doc[i] {
		case '*':
			aliases++
		case '!':
			end := i
			for end < len(doc) && !tokenBoundary[doc[end]] {
				end++
			}
			tag := doc[i:end]
			binaryTag = binaryTag || bytes.Contains(tag, []byte("binary")) || bytes.IndexByte(tag, '%') >= 0
		case '%':
			binaryTag = binaryTag || (i == 0 || doc[i-1] == '\n') && bytes.HasPrefix(doc[i:], []byte("%TAG"))
		}
	}
	return binaryTag && aliases > expansionLimit(len(doc))/len(doc)
}

// tokenBoundary marks the bytes after which a YAML token may start.
var tokenBoundary = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '[': true, '{': true, ',': true}

func binaryAliasMsg(n int) string {
	return fmt.Sprintf("this document aliases tagged values so often that go-yaml could expand it beyond %d bytes (it decodes a !!binary value again for every alias); write the values out instead of aliasing them", expansionLimit(n))
}

// locateNonFinite points e at the first plain scalar of doc (which starts
// at line) that reads as NaN or an infinity, and names its value, if it
// finds one: go-yaml's tree has no positions. Comments are skipped; text
// in block scalars that looks like such a value may mislead it.
func locateNonFinite(doc []byte, line int32, e *position.Error) {
	for len(doc) > 0 {
		end := bytes.IndexByte(doc, '\n')
		if end < 0 {
			end = len(doc)
		}
		if col, f, ok := nonFiniteInLine(doc[:end]); ok {
			e.Line, e.Column, e.Message = int(line), col+1, nonFiniteMsg(f)
			return
		}
		if end == len(doc) {
			return
		}
		doc = doc[end+1:]
		line++
	}
}

// nonFiniteInLine finds a token of l, up to a comment, that resolves to
// NaN or an infinity, and returns its offset and value.
func nonFiniteInLine(l []byte) (int, float64, bool) {
	isSep := func(c byte) bool {
		return c == ' ' || c == '\t' || c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
	}
	for i := 0; i < len(l); {
		for i < len(l) && isSep(l[i]) {
			i++
		}
		if i < len(l) && l[i] == '#' {
			return 0, 0, false
		}
		j := i
		for j < len(l) && !isSep(l[j]) {
			j++
		}
		if r, ok := resolveSpecialFloat(string(l[i:j])); ok {
			return i, r.f, true
		}
		i = j
	}
	return 0, 0, false
}
