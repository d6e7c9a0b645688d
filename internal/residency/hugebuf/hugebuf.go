// Package hugebuf gives buffers outside the Go heap, in memory backed by
// transparent huge pages, for reading files one after another into the
// same memory.
//
// A catalog walk reads each file whole, decodes it and is done with its
// bytes. Read into the Go heap, a file's bytes count towards the live
// heap the collector paces itself by, and each new buffer is fresh memory
// faulted in 4 KiB at a time; mapped from the page cache, its pages are
// mapped 4 KiB at a time too. Where each fault is dear (on catalogs/v4.20
// a virtual machine took 8–10 ms to touch the 13.5 MB of its larger files
// mapped, 3.3 ms to read them into a buffer in huge pages, 12–13 ms into
// one in small pages), a buffer in 2 MiB pages that every file of a
// worker is read into costs a fault or two per file at most, and none
// once it has grown to the largest.
//
// Buffers are had only where the kernel gives huge pages to memory that
// asks for them or to all memory ("madvise" or "always"); elsewhere, or
// with OPM_HUGE_PAGES=0, Usable is false and callers read or map files
// as before.
package hugebuf

// Buffer is memory outside the Go heap. The zero Buffer holds none; Grow
// maps it and Free unmaps it. A Buffer is for one goroutine at a time.
type Buffer struct {
	mapping []byte // what was mapped, for Free
	data    []byte // its part aligned to huge pages, what Grow hands out
}
