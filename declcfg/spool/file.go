package spool

import (
	"fmt"
	"os"
	"runtime"
)

// spillBatchSize is how much output goes to the temporary file in
// one write. Pieces are gathered into batches rather than written one by
// one: on the 111 MiB benchmark catalog, writing, reading back and freeing
// the file cost less than with a write per piece, and 1 MiB batches were
// no faster than 256 KiB ones but held more memory (docs/performance.md).
const spillBatchSize = 256 << 10

// spillBuffers is how many batch buffers a writer keeps: one being filled
// and one being written by each of a few goroutines.
const spillBuffers = 4

// file is a spool's unlinked temporary file. Pieces are appended to a
// batch in memory and given their offset in the file at once; a full
// batch is written by the goroutine that filled it, outside the spool's
// lock. Its methods but spillBatch.write run under the spool's lock.
type file struct {
	f      *os.File
	noFile bool    // no temporary file could be made: keep to memory
	size   int64   // bytes given an offset, written or in batch
	batch  *[]byte // the batch being filled; its first byte is at size-len(*batch)
	// free holds the buffers of batches written, for the next ones: kept
	// for the spool's life (a sync.Pool would drop them at every garbage
	// collection, and the new ones would make the heap grow).
	free *Buffers
}

// spillBatch is a full batch to write at off, or nothing. Its buffer goes
// back to free once written, unless free is nil (a piece written as it
// is).
type spillBatch struct {
	file *os.File
	buf  *[]byte
	off  int64
	free *Buffers
}

// open makes the temporary file if there is none yet and reports whether
// there is one.
func (s *file) open() bool {
	if s.f != nil {
		return true
	}
	if s.noFile {
		return false
	}
	f, err := os.CreateTemp("", "opm-output-*")
	if err != nil {
		s.noFile = true // keep going in memory
		return false
	}
	if runtime.GOOS != "windows" {
		// Unlinked at once, so nothing is left behind even on a crash.
		_ = os.Remove(f.Name())
	}
	s.f = f
	return true
}

// add appends data to the batch and returns its offset in the file, with
// the batch to write if data did not fit in it: a batch is not grown. A
// piece larger than a batch is not copied: it is the second batch to
// write, straight from data, which must stay unchanged until then.
func (s *file) add(data []byte) (off int64, full, large spillBatch) {
	if s.free == nil {
		s.free = NewBuffers(spillBuffers, spillBatchSize, spillBatchSize)
	}
	if s.batch != nil && len(*s.batch)+len(data) > cap(*s.batch) {
		full = s.take()
	}
	if len(data) > spillBatchSize {
		off = s.size
		s.size += int64(len(data))
		return off, full, spillBatch{file: s.f, buf: &data, off: off}
	}
	if s.batch == nil {
		s.batch = s.free.Get()
	}
	off = s.size
	*s.batch = append(*s.batch, data...)
	s.size += int64(len(data))
	return off, full, spillBatch{}
}

// take takes the batch being filled, to write.
func (s *file) take() spillBatch {
	b := spillBatch{file: s.f, buf: s.batch, off: s.size - int64(len(*s.batch)), free: s.free}
	s.batch = nil
	return b
}

// write writes the batch, if any, and returns its buffer to the pool.
func (b spillBatch) write() error {
	if b.buf == nil {
		return nil
	}
	_, err := b.file.WriteAt(*b.buf, b.off)
	if b.free != nil {
		b.free.Put(b.buf)
	}
	if err != nil {
		return fmt.Errorf("writing temporary file: %w", err)
	}
	return nil
}

// finish writes the batch being filled; every full batch must be written.
func (s *file) finish() error {
	if s.batch == nil {
		return nil
	}
	return s.take().write()
}

// close releases the file.
func (s *file) close() error {
	s.batch, s.free = nil, nil
	if s.f == nil {
		return nil
	}
	name := s.f.Name()
	err := s.f.Close()
	if runtime.GOOS == "windows" {
		_ = os.Remove(name)
	}
	s.f = nil
	return err
}
