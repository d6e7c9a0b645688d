//go:build !linux

package hugeheap

// advise does nothing where huge pages are not asked for as on Linux.
func advise() {}
