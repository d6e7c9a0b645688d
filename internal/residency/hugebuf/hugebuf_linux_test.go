package hugebuf

import (
	"os"
	"testing"
	"unsafe"
)

// TestGrow checks that a buffer starts on a huge page, holds what it was
// asked for, keeps its memory while that is enough and maps more when it
// is not.
func TestGrow(t *testing.T) {
	if !Usable() {
		t.Skip("no transparent huge pages here")
	}
	var b Buffer
	defer b.Free()
	first, err := b.Grow(100)
	if err != nil {
		t.Fatal(err)
	}
	page := os.Getpagesize()
	if len(first) != 0 || cap(first) != page {
		t.Fatalf("Grow(100): len %d, cap %d, want 0 and %d", len(first), cap(first), page)
	}
	if addr := uintptr(unsafe.Pointer(unsafe.SliceData(first))); addr%hugePage != 0 {
		t.Fatalf("the buffer starts at %#x, not on a huge page", addr)
	}
	first = append(first, "catalog"...)
	again, _ := b.Grow(page)
	if unsafe.SliceData(again) != unsafe.SliceData(first) || string(again[:7]) != "catalog" {
		t.Fatal("Grow within the buffer's size mapped anew")
	}
	larger, err := b.Grow(hugePage + 1)
	if err != nil {
		t.Fatal(err)
	}
	if cap(larger) != hugePage+page || unsafe.SliceData(larger) == unsafe.SliceData(first) {
		t.Fatalf("Grow past the buffer's size: cap %d, same memory %v", cap(larger), unsafe.SliceData(larger) == unsafe.SliceData(first))
	}
	// Past half a huge page more, a whole one more.
	if larger, _ = b.Grow(hugePage + hugePage/2); cap(larger) != 2*hugePage {
		t.Fatalf("Grow(%d): cap %d, want %d", hugePage+hugePage/2, cap(larger), 2*hugePage)
	}
	larger = larger[:cap(larger)]
	for i := range larger { // all of it writable
		larger[i] = 1
	}
	b.Free()
	if b.mapping != nil || b.data != nil {
		t.Fatal("Free left memory")
	}
}
