//go:build !linux

package hugebuf

import "errors"

// Usable is false where huge pages are not asked for as on Linux.
func Usable() bool { return false }

// Mode is empty where huge pages are not asked for as on Linux.
func Mode() string { return "" }

// Grow fails where Usable is false.
func (b *Buffer) Grow(n int) ([]byte, error) {
	return nil, errors.New("buffers in huge pages are had on Linux only")
}

// Free does nothing where Grow maps nothing.
func (b *Buffer) Free() {}
