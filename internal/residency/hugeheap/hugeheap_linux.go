package hugeheap

import (
	"runtime"
	"syscall"
	"unsafe"

	"github.com/fbcat/opm/internal/residency/hugebuf"
)

// reserve is how much heap advise maps ahead of what the program uses:
// the memory is only reserved, not touched, until the heap grows into it.
const reserve = 64 << 20

// arenaSize is the size and alignment of the Go heap's arenas on 64-bit
// Linux: the heap is mapped in such arenas, and grows within one upward.
const arenaSize = 64 << 20

// growStep is the unit the Go heap is mapped in as it grows (the page
// allocator's 4 MiB chunk): the mapping made for the reserve ends on it.
const growStep = 4 << 20

// madvHugePage is MADV_HUGEPAGE, which package syscall does not name.
const madvHugePage = 14

// advise maps reserve bytes of heap and marks the heap's arena, up to
// the end of the mapping they made, for huge pages. The heap is mapped
// afresh as it grows (and a fresh mapping does not keep the advice), so
// the mapping is made first, by allocating reserve bytes and letting the
// garbage collector free them again: later allocations reuse that
// memory, lowest addresses first. Nothing is done but where the kernel's setting is "madvise"
// (under "always" the heap has huge pages already, under "never" it
// cannot), or if OPM_HUGE_PAGES is 0.
func advise() {
	if hugebuf.Mode() != "madvise" {
		return
	}
	b := make([]byte, reserve) // fresh memory: mapped, not written
	end := uintptr(unsafe.Pointer(unsafe.SliceData(b))) + reserve
	start := (end - reserve) &^ (arenaSize - 1)
	// The heap was mapped up to the end of the chunk the reserve ends in,
	// and a processor's page cache may already hold pages of that tail.
	end = (end + growStep - 1) &^ (growStep - 1)
	b = nil
	runtime.GC()
	// The range may hold a hole between two arenas (then madvise fails
	// with ENOMEM after advising the rest); a kernel without huge pages
	// refuses it (EINVAL). Either way there is nothing more to do.
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvHugePage)
}
