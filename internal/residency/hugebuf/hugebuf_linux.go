package hugebuf

import (
	"bytes"
	"os"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on x86-64 and arm64
// (with 4 KiB base pages).
const hugePage = 2 << 20

// madvHugePage is MADV_HUGEPAGE.
const madvHugePage = 14

// Usable reports whether buffers in huge pages can be had here.
func Usable() bool {
	m := Mode()
	return m == "madvise" || m == "always"
}

// Mode is the kernel's setting for transparent huge pages: "always",
// "madvise" or "never"; empty where opm does not ask for them (set
// OPM_HUGE_PAGES=0, or on a 32-bit system).
func Mode() string {
	if unsafe.Sizeof(uintptr(0)) != 8 || os.Getenv("OPM_HUGE_PAGES") == "0" {
		return ""
	}
	setting, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	_, rest, _ := bytes.Cut(setting, []byte("["))
	mode, _, _ := bytes.Cut(rest, []byte("]"))
	return string(mode)
}

// Grow returns b's memory, empty, with room for at least n bytes,
// mapping it anew (and dropping what it held) if it has less. Nothing may
// use what an earlier Grow returned once a later one maps anew.
func (b *Buffer) Grow(n int) ([]byte, error) {
	if n <= len(b.data) {
		return b.data[:0], nil
	}
	b.Free()
	// Whole huge pages as far as n goes; the rest of n in one more if it
	// is at least half of one (a few hundred faults of small pages
	// spared for at most a megabyte resident unused), otherwise in small
	// pages: the kernel backs with a huge page only a whole one. One huge
	// page more is mapped than needed, to start on a huge page's
	// boundary.
	page := os.Getpagesize()
	size := (n + page - 1) &^ (page - 1)
	if size%hugePage >= hugePage/2 {
		size = (size + hugePage - 1) &^ (hugePage - 1)
	}
	m, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, err
	}
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
	off := int((addr+hugePage-1)&^(hugePage-1) - addr)
	data := m[off : off+size : off+size]
	_ = syscall.Madvise(data, madvHugePage) // under "always", not needed
	b.mapping, b.data = m, data
	return data[:0], nil
}

// Free unmaps b's memory. Nothing may use what Grow returned after it.
func (b *Buffer) Free() {
	if b.mapping != nil {
		_ = syscall.Munmap(b.mapping)
	}
	b.mapping, b.data = nil, nil
}
