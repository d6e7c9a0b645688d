package declcfg

import (
	"fmt"
	"io"
	"io/fs"
	"unsafe"

	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/internal/memfile"
)

// readFile reads a catalog file into buf (or a larger buffer if buf is
// too small): a regular file (links are followed) of at most limit bytes
// that is text, not binary. Binary files are told by their first bytes,
// before the rest is read. The data of a MemFS file is not copied: it is
// borrowed, and must not be written to. Nor is a large file's (see
// mapFile): then m is set, the data must not be written to and is gone
// once m is closed, and reading it may fault if the file is made shorter
// meanwhile (see faulted).
func readFile(fsys fs.FS, name string, limit int64, buf []byte) (data []byte, borrowed bool, m *mapping, err error) {
	f, st, err := openRegular(fsys, name, limit, catalogFile)
	if err != nil {
		return nil, false, nil, err
	}
	if mf, ok := f.(*memfile.File); ok {
		defer f.Close()
		if looksBinary(mf.Data[:min(len(mf.Data), binarySniffLen)]) {
			return nil, false, nil, errBinary
		}
		return mf.Data, true, nil, nil
	}
	return readOpened(f, st, limit, buf)
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
func readOpened(f fs.File, st fs.FileInfo, limit int64, buf []byte) (data []byte, borrowed bool, m *mapping, err error) {
	defer f.Close()
	hp := sniffBufs.Get().(*[binarySniffLen]byte)
	defer sniffBufs.Put(hp)
	r := limitReader(f, limit)
	n, err := io.ReadFull(r, hp[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, false, nil, fmt.Errorf("cannot read: %v", fserr.Cause(err))
	}
	if looksBinary(hp[:n]) {
		return nil, false, nil, errBinary
	}
	if n < len(hp) {
		return append(buf[:0], hp[:n]...), false, nil, nil
	}
	if m, ok := mapFile(f, st.Size()); ok {
		return m.data, false, m, nil
	}
	if int64(cap(buf)) < st.Size()+1 {
		buf = make([]byte, 0, max(st.Size()+1, int64(n)+1))
	}
	buf = append(buf[:0], hp[:n]...)
	data, err = readAll(r, buf, limit, catalogFile)
	return data, false, nil, err
}
