package value

// Scanning text 8 bytes at a time: the writers and the YAML emitter skip
// long runs of ordinary characters (base64 data is most of a catalog's
// bytes) a word at a time, and look at single bytes only where a word may
// hold one that matters. The tests below are exact about whether some byte
// of a word matches.

// Masks of the high bit and of the lowest bit of every byte of a word.
const (
	highBits = 0x8080808080808080
	lowBits  = 0x0101010101010101
)

// Word returns the 8 bytes of s from i (i+8 <= len(s)) as a
// little-endian word.
func Word[T string | []byte](s T, i int) uint64 {
	w := s[i : i+8]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// Printable reports whether every byte of x is ASCII from lo (at most
// 0x7E) to 0x7E: no control character, no DEL, no part of a multi-byte
// character.
func Printable(x uint64, lo byte) bool { return outside(x, lo) == 0 }

// HasByte reports whether some byte of x is c.
func HasByte(x uint64, c byte) bool { return equal(x, c) != 0 }

// outside has the high bit set in the lowest byte of x that is not ASCII
// from lo to 0x7E, and perhaps in bytes above it: the borrows and carries
// that flag a byte run upward only, so the lowest flagged byte is exact
// (bits.TrailingZeros64 finds it).
func outside(x uint64, lo byte) uint64 {
	below := (x - uint64(lo)*lowBits) &^ x // a byte below lo, or one with the high bit
	del := x + lowBits                     // 0x7F carries into the high bit
	return (x | below | del) & highBits
}

// equal has the high bit set in the lowest byte of x that is c, and
// perhaps in bytes above it (exact as outside's).
func equal(x uint64, c byte) uint64 {
	y := x ^ uint64(c)*lowBits
	return (y - lowBits) &^ y & highBits
}

// spaces8 is a word of eight spaces.
const spaces8 = 0x2020202020202020
