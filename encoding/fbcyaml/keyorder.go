package fbcyaml

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// keyLess orders mapping keys the way go-yaml v2 sorts string keys before
// writing them: rune by rune; at the first difference letters compare by
// code point, a non-letter sorts before a letter, and runs of digits compare
// as numbers (so "a2" < "a10").
func keyLess(a, b string) bool {
	if isASCII(a) && isASCII(b) {
		return runesLess(a, b, len(a), len(b), func(s string, i int) rune { return rune(s[i]) })
	}
	ar, br := []rune(a), []rune(b)
	return runesLess(ar, br, len(ar), len(br), func(s []rune, i int) rune { return s[i] })
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func runesLess[S any](a, b S, na, nb int, at func(S, int) rune) bool {
	for i := 0; i < na && i < nb; i++ {
		ca, cb := at(a, i), at(b, i)
		if ca == cb {
			continue
		}
		al, bl := unicode.IsLetter(ca), unicode.IsLetter(cb)
		if al && bl {
			return ca < cb
		}
		if al || bl {
			return bl
		}
		var an, bn int64
		if ca == '0' || cb == '0' {
			// A zero inside a number (after a non-zero digit) continues it.
			for j := i - 1; j >= 0 && unicode.IsDigit(at(a, j)); j-- {
				if at(a, j) != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < na && unicode.IsDigit(at(a, ai)); ai++ {
			an = an*10 + int64(at(a, ai)-'0')
		}
		for ; bi < nb && unicode.IsDigit(at(b, bi)); bi++ {
			bn = bn*10 + int64(at(b, bi)-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ca < cb
	}
	return na < nb
}

// sortMembers puts an object's members in go-yaml v2's key order and
// returns them. As when JSON is read into a map, the last of members with
// the same key wins; go-yaml then sorts the map's keys, starting from
// byte order (which decides among keys its order cannot tell apart).
func sortMembers(ms []member) []member {
	sorted := true
	for i := 1; i < len(ms); i++ {
		if ms[i-1].key >= ms[i].key {
			sorted = false
			break
		}
	}
	if !sorted {
		slices.SortStableFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
		out := ms[:0]
		for i := range ms {
			if i+1 < len(ms) && ms[i+1].key == ms[i].key {
				continue
			}
			out = append(out, ms[i])
		}
		ms = out
	}
	slices.SortStableFunc(ms, func(a, b member) int {
		switch {
		case keyLess(a.key, b.key):
			return -1
		case keyLess(b.key, a.key):
			return 1
		}
		return 0
	})
	return ms
}
