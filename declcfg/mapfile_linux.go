package declcfg

import (
	"io/fs"
	"math"
	"os"
	"syscall"
)

// mapMin is the size from which a catalog file is mapped rather than
// read: below it, a read costs less than the mapping's system calls.
const mapMin = 256 << 10

// mapFile maps the size bytes of f into memory, read-only, if f is an
// operating system file of at least mapMin bytes. A mapped file's bytes
// are the page cache's: they are not copied into the heap, and do not
// count towards the live heap the garbage collector paces itself by. The
// pages are populated at once, which costs less than faulting them in
// one by one. unmap releases the mapping; nothing may use data after it.
func mapFile(f fs.File, size int64) (data []byte, unmap func(), ok bool) {
	of, isOS := f.(*os.File)
	if !isOS || size < mapMin || size > math.MaxInt32 {
		return nil, nil, false
	}
	raw, err := of.SyscallConn()
	if err != nil {
		return nil, nil, false
	}
	var merr error
	err = raw.Control(func(fd uintptr) {
		data, merr = syscall.Mmap(int(fd), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	})
	if err != nil || merr != nil {
		return nil, nil, false // read it instead
	}
	return data, func() { _ = syscall.Munmap(data) }, true
}
