package declcfg

import (
	"io/fs"
	"math"
	"os"
	"syscall"
)

// A large mapped file is not held in memory whole: its pages are asked
// for mapWindow bytes ahead of the decoder (madvise MADV_POPULATE_READ,
// which costs less than faulting them in one by one) and given back
// behind it in steps of mapRelease (MADV_DONTNEED: they stay in the page
// cache, but no longer count in the process's resident memory). A
// real catalog's largest package can be a quarter of it (58 MB of 200),
// which, mapped whole, was most of render's peak memory.
const (
	mapWindow  = 4 << 20
	mapRelease = 1 << 20
)

// madvPopulateRead is MADV_POPULATE_READ (Linux 5.14), which package
// syscall does not name.
const madvPopulateRead = 22

// mapping is a catalog file mapped into memory.
type mapping struct {
	data []byte
	// Pages below released were given back; pages below populated were
	// asked for (both multiples of the page size, or len(data)).
	released, populated int
}

// mapFile maps the size bytes of f into memory, read-only, if f is an
// operating system file of at least mapMin bytes. A mapped file's bytes
// are the page cache's: they are not copied into the heap, and do not
// count towards the live heap the garbage collector paces itself by. A
// file of up to mapWindow bytes is populated at once; a larger one as
// the decoder goes (see consumed). close releases the mapping; nothing
// may use data after it.
func mapFile(f fs.File, size int64) (m *mapping, ok bool) {
	of, isOS := f.(*os.File)
	if !isOS || size < mapMin || size > math.MaxInt32 {
		return nil, false
	}
	raw, err := of.SyscallConn()
	if err != nil {
		return nil, false
	}
	flags := syscall.MAP_PRIVATE
	if size <= mapWindow {
		flags |= syscall.MAP_POPULATE
	}
	var data []byte
	var merr error
	err = raw.Control(func(fd uintptr) {
		data, merr = syscall.Mmap(int(fd), 0, int(size), syscall.PROT_READ, flags)
	})
	if err != nil || merr != nil {
		return nil, false // read it instead
	}
	m = &mapping{data: data}
	if size <= mapWindow {
		m.populated = len(data)
	}
	m.consumed(0)
	return m, true
}

// consumed tells m that the decoder is done with data[:off]: nothing
// decoded keeps the file's bytes, so the pages before off may go, and
// those up to mapWindow after it are asked for. Reading a page given back
// faults it in again from the file, so an early call costs time, never
// correctness. A nil m is a file that is not mapped.
func (m *mapping) consumed(off int) {
	if m == nil {
		return
	}
	page := os.Getpagesize()
	if off-m.released >= mapRelease {
		end := off &^ (page - 1)
		_ = syscall.Madvise(m.data[m.released:end], syscall.MADV_DONTNEED)
		m.released = end
	}
	if m.populated < len(m.data) && off+mapWindow/2 > m.populated {
		end := min(len(m.data), (off+mapWindow+page-1)&^(page-1))
		if err := syscall.Madvise(m.data[m.populated:end], madvPopulateRead); err != nil {
			end = len(m.data) // an older kernel: the pages fault in
		}
		m.populated = end
	}
}

// close releases the mapping.
func (m *mapping) close() { _ = syscall.Munmap(m.data) }
