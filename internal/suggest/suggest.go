// Package suggest finds the names closest to a mistyped one, for "did you
// mean" hints.
package suggest

// Distance is the edit distance between a and b (in bytes): insertions,
// deletions, substitutions and swaps of two neighbours each count one
// (the optimal string alignment distance, so that "stabel" is one edit
// from "stable").
func Distance(a, b string) int {
	// rows i-2, i-1 and i of the table
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
