// Package hugeheap asks, as the process starts, for the Go heap to be
// backed by transparent huge pages where the kernel gives them only to
// memory that asks (the "madvise" setting, the default of many
// distributions). A command reading a catalog touches tens of megabytes
// of fresh heap, a page fault for every 4 KiB of it: on catalogs/v4.20,
// 5,800 faults of validate's or render's 6,000, at up to 16 µs each on a
// virtual machine, a sixth of their CPU time. With 2 MiB pages, 2,200.
//
// Importing the package is what does it: its initialiser runs before
// those of most other packages (Go initialises packages in the order of
// their import paths, once their imports are), so that the heap their
// initialisers and the command fill is already advised. Set
// OPM_HUGE_PAGES=0 to leave the heap as the kernel's default has it.
package hugeheap

func init() { advise() }
