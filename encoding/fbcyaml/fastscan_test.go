package fbcyaml

import (
	"testing"
	"unicode/utf8"
)

// TestFastSafeEveryByte puts every byte value at every position of a
// word among printable text and line breaks, and checks fastSafe against
// its rule byte by byte.
func TestFastSafeEveryByte(t *testing.T) {
	for b := 0; b < 256; b++ {
		for pos := 0; pos < 17; pos++ {
			d := []byte("ab:\ncd ef\n- gh: ij\nkl")
			d[pos] = byte(b)
			want := true
			for _, c := range d {
				if c >= utf8.RuneSelf || (c < 0x20 && c != '\n') || c == 0x7f {
					want = false
				}
			}
			if b >= utf8.RuneSelf {
				continue // a lone byte of a multi-byte character: invalid either way
			}
			if got := fastSafe(d); got != want {
				t.Errorf("byte %#x at %d of %q: fastSafe %v, want %v", b, pos, d, got, want)
			}
		}
	}
}
