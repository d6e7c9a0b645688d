package textdiff

import "bytes"

// commonEnds returns how many bytes at the start (pre) and at the end
// (suf) of a and b a diff can leave out without changing a line of what
// it prints: a large catalog's diff then splits into lines and compares
// only the part around its changes.
//
// The text is compared in units of one or more lines (see Readable);
// unitStart says of a line (and the text after it) whether it always
// starts a unit, whatever comes before it, and its unit and those after
// it do not depend on what comes before. What is left out ends (pre) or
// starts (suf) at such a line, with more than diffContext of them
// between it and the first (or last) difference: the diff's own search
// for equal first and last units then reaches beyond diffContext units
// of context, so the same units are found equal and the lines left out
// are never printed. The end left out never reaches into the common
// start, so it is no more than the equal last units the diff would find
// after the equal first ones. The lines left out are counted, for the
// hunks' line numbers.
func commonEnds(a, b []byte, unitStart func(line []byte) bool) (pre, suf int) {
	if a == nil || b == nil {
		return 0, 0
	}
	l := commonPrefix(a, b)
	return startCut(a, l, unitStart), endCut(a, commonSuffix(a[l:], b[l:]), unitStart)
}

// startCut is where the common start of a and b, its first l bytes, can
// be cut: at the start of the (diffContext+1)th unit-starting line
// before l, or 0.
func startCut(a []byte, l int, unitStart func([]byte) bool) int {
	found := 0
	for limit := l - 1; limit >= 0; {
		s := bytes.LastIndexByte(a[:limit], '\n') + 1
		if unitStart(a[s:]) {
			if found++; found > diffContext {
				return s
			}
		}
		if s == 0 {
			break
		}
		limit = s - 1
	}
	return 0
}

// endCut is how much of the common end of a and b, its last t bytes, can
// be cut: from the start of the (diffContext+1)th unit-starting line
// after the common end's first line end, or 0.
func endCut(a []byte, t int, unitStart func([]byte) bool) int {
	found := 0
	for from := len(a) - t; from < len(a); {
		i := bytes.IndexByte(a[from:], '\n')
		if i < 0 {
			break
		}
		s := from + i + 1 // a line start within the common end
		if s < len(a) && unitStart(a[s:]) {
			if found++; found > diffContext {
				return len(a) - s
			}
		}
		from = s
	}
	return 0
}

// commonPrefix is how many bytes a and b start with alike.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	const chunk = 4096
	i := 0
	for i+chunk <= n && bytes.Equal(a[i:i+chunk], b[i:i+chunk]) {
		i += chunk
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is how many bytes a and b end with alike.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	const chunk = 4096
	i := 0
	for i+chunk <= n && bytes.Equal(a[len(a)-i-chunk:len(a)-i], b[len(b)-i-chunk:len(b)-i]) {
		i += chunk
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
