package spool

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
)

// TestWriteTo adds pieces of many sizes (some larger than a batch and the
// read-back buffer), from several goroutines, and writes them back in an
// order unlike the one they were added in: the output is the pieces in
// that order, from memory, from the file, or both.
func TestWriteTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := make([][]byte, 300)
	for i := range pieces {
		n := 1 + rng.IntN(16<<10)
		if i%50 == 7 {
			n = outputBufSize*2 + rng.IntN(outputBufSize) // read in three parts
		}
		pieces[i] = bytes.Repeat([]byte{byte('a' + i%26)}, n)
		pieces[i][0] = byte(i)
	}
	order := rng.Perm(len(pieces))
	// Runs of consecutive pieces, read from the file at once.
	for i := 0; i+10 < len(order); i += 40 {
		for j := range 10 {
			order[i+j] = min(len(pieces)-1, order[i]+j)
		}
	}
	var want []byte
	for _, i := range order {
		want = append(want, pieces[i]...)
	}
	for _, tc := range []struct {
		name    string
		budget  int
		spilled bool
		noTmp   bool
	}{
		{"memory", 1 << 30, false, false},
		{"file", 0, true, false},
		{"both", 256 << 10, true, false},
		{"no temporary file", 0, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.noTmp {
				t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
			}
			s := New(tc.budget)
			defer s.Close()
			refs := make([]Ref, len(pieces))
			var wg sync.WaitGroup
			for g := range 3 {
				wg.Go(func() {
					for i := g; i < len(pieces); i += 3 {
						buf := append([]byte(nil), pieces[i]...)
						r, err := s.Add(buf)
						if err != nil {
							t.Error(err)
							return
						}
						clear(buf) // Add copied it
						refs[i] = r
					}
				})
			}
			wg.Wait()
			if s.Spilled() != tc.spilled {
				t.Errorf("temporary file used: %v, want %v", s.Spilled(), tc.spilled)
			}
			var got bytes.Buffer
			n, err := s.WriteTo(&got, func(yield func(Ref) bool) {
				for _, i := range order {
					if refs[i].Len() != len(pieces[i]) || !yield(refs[i]) {
						return
					}
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(got.Len()) || !bytes.Equal(got.Bytes(), want) {
				t.Errorf("wrote %d bytes (%d reported), not the %d of the pieces in order", got.Len(), n, len(want))
			}
		})
	}
}
