package crdcompat

import (
	"slices"
	"sync"
	"testing"
)

// Each item is compared with the one before it, and released once both
// its comparisons are done (the first and last once their one is); an
// item that could not be read is compared with nothing. Off, items are
// released as soon as they are read.
func TestPrecompare(t *testing.T) {
	for _, on := range []bool{true, false} {
		var mu sync.Mutex
		var compared [][2]int
		released := map[int]int{}
		p := NewPrecompare(4, on, func(from, to *int) {
			mu.Lock()
			defer mu.Unlock()
			compared = append(compared, [2]int{*from, *to})
		}, func(i *int) {
			mu.Lock()
			defer mu.Unlock()
			released[*i]++
		})
		items := []*int{new(int), new(int), nil, new(int)}
		for k, it := range items {
			if it != nil {
				*it = k
			}
		}
		var wg sync.WaitGroup
		for k := range items {
			wg.Go(func() {
				p.Read(k, items[k])
				p.Compare(k)
			})
		}
		wg.Wait()
		slices.SortFunc(compared, func(a, b [2]int) int { return a[0] - b[0] })
		want := [][2]int{{0, 1}}
		if !on {
			want = nil
		}
		if !slices.Equal(compared, want) {
			t.Errorf("on %v: compared %v, want %v", on, compared, want)
		}
		for _, k := range []int{0, 1, 3} {
			if released[k] != 1 {
				t.Errorf("on %v: item %d released %d times", on, k, released[k])
			}
		}
	}
}
