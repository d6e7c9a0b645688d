package declcfg

import (
	"fmt"
	"io"
	"io/fs"
	"unsafe"

	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/internal/memfile"
	"github.com/fbcat/opm/internal/residency/hugebuf"
)

// fileBuffers is what a worker reads catalog files into, one after
// another: nothing decoded from a file keeps its bytes, so the next file
// can reuse them.
type fileBuffers struct {
	small []byte // in the Go heap, for files below mapMin
	// large, outside the Go heap in huge pages, is for files from mapMin
	// to readMax bytes where such memory can be had (largeOK; see
	// hugebuf): they are read into it rather than mapped.
	large   hugebuf.Buffer
	largeOK bool
}

// A file from mapMin bytes up to readMax is read into huge pages where
// they can be had, and mapped otherwise; a larger one is mapped (a
// window at a time, which holds less in memory than a buffer would),
// and a smaller one read into the heap: below mapMin, a read costs less
// than a mapping's system calls.
const (
	mapMin  = 256 << 10
	readMax = 4 << 20
)

// free gives back the memory outside the heap.
func (b *fileBuffers) free() { b.large.Free() }

// readFile reads a catalog file into bufs: a regular file (links are
// followed) of at most limit bytes that is text, not binary. Binary files
// are told by their first bytes, before the rest is read. The data of a
// MemFS file is not copied: it is borrowed, and must not be written to.
// Nor is a large file's (see mapFile): then m is set, the data must not be
// written to and is gone once m is closed, and reading it may fault if the
// file is made shorter meanwhile (see faulted). Otherwise the data is
// bufs' until the next file is read into them.
func readFile(fsys fs.FS, name string, limit int64, bufs *fileBuffers) (data []byte, m *mapping, err error) {
	f, st, err := openRegular(fsys, name, limit, catalogFile)
	if err != nil {
		return nil, nil, err
	}
	if mf, ok := f.(*memfile.File); ok {
		defer f.Close()
		if looksBinary(mf.Data[:min(len(mf.Data), binarySniffLen)]) {
			return nil, nil, errBinary
		}
		return mf.Data, nil, nil
	}
	return readOpened(f, st, limit, bufs)
}

// faulted tells whether r, what a walk over a mapped file recovered, is
// the fault of reading the file after it was made shorter; then the file
// has a problem that says so. Any other panic goes on.
func (w *fileWalk) faulted(r any, data []byte) bool {
	if r == nil {
		return false
	}
	if f, ok := r.(interface{ Addr() uintptr }); ok && len(data) > 0 {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
		if a := f.Addr(); a >= start && a-start < uintptr(len(data)) {
			w.report(&Error{Message: "the file was made shorter while opm read it; run opm again once nothing writes to it"})
			return true
		}
	}
	panic(r)
}

// errBinary is the error of a catalog file that is binary.
var errBinary = fmt.Errorf("this is a binary file, not catalog data (JSON or YAML); list it in %s if it belongs in the directory", IndexIgnoreFile)

// readOpened is readFile of a file opened.
func readOpened(f fs.File, st fs.FileInfo, limit int64, bufs *fileBuffers) (data []byte, m *mapping, err error) {
	defer f.Close()
	hp := sniffBufs.Get().(*[binarySniffLen]byte)
	defer sniffBufs.Put(hp)
	r := limitReader(f, limit)
	n, err := io.ReadFull(r, hp[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, nil, fmt.Errorf("cannot read: %v", fserr.Cause(err))
	}
	if looksBinary(hp[:n]) {
		return nil, nil, errBinary
	}
	if n < len(hp) {
		bufs.small = append(bufs.small[:0], hp[:n]...)
		return bufs.small, nil, nil
	}
	size := st.Size()
	if size >= mapMin && size < readMax && bufs.largeOK {
		if buf, err := bufs.large.Grow(int(size) + 1); err == nil {
			data, err = readAll(r, append(buf, hp[:n]...), limit, catalogFile)
			return data, nil, err
		}
	}
	if m, ok := mapFile(f, size); ok {
		return m.data, m, nil
	}
	if int64(cap(bufs.small)) < size+1 {
		bufs.small = make([]byte, 0, max(size+1, int64(n)+1))
	}
	data, err = readAll(r, append(bufs.small[:0], hp[:n]...), limit, catalogFile)
	if err == nil {
		bufs.small = data[:0] // grown, if the file grew
	}
	return data, nil, err
}
