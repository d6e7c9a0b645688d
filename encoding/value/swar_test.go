package value

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestWordTests(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	interesting := []byte{0, 0x1f, ' ', '!', '"', '#', ':', '\\', 'a', 0x7e, 0x7f, 0x80, 0xc2, 0xff}
	for n := 0; n < 200000; n++ {
		var b [8]byte
		for k := range b {
			if r.IntN(2) == 0 {
				b[k] = interesting[r.IntN(len(interesting))]
			} else {
				b[k] = byte(r.IntN(256))
			}
		}
		s := string(b[:])
		x := Word(s, 0)
		for _, lo := range []byte{' ', '!'} {
			want := true
			for _, c := range b {
				want = want && c >= lo && c <= 0x7e
			}
			if got := Printable(x, lo); got != want {
				t.Fatalf("Printable(%q, %#x) = %v", s, lo, got)
			}
		}
		for _, c := range interesting {
			if got, want := HasByte(x, c), strings.IndexByte(s, c) >= 0; got != want {
				t.Fatalf("HasByte(%q, %#x) = %v", s, c, got)
			}
		}
	}
}
