package declcfg

import (
	"fmt"
	"io"
	"os"
	"runtime"
)

// spillBatchSize is how much encoded output goes to the temporary file in
// one write. Objects are gathered into batches rather than written one by
// one: on the 111 MiB benchmark catalog, writing, reading back and freeing
// the file cost less than with a write per object, and 1 MiB batches were
// no faster than 256 KiB ones but held more memory (docs/performance.md).
const spillBatchSize = 256 << 10

// spillBuffers is how many batch buffers a writer keeps: one being filled
// and one being written by each of a few goroutines.
const spillBuffers = 4

// spill is an OrderedWriter's unlinked temporary file. Objects are
// appended to a batch in memory and given their offset in the file at
// once; a full batch is written by the goroutine that filled it, outside
// the writer's lock. Its methods but spillBatch.write run under the
// writer's lock.
type spill struct {
	file   *os.File
	noFile bool    // no temporary file could be made: keep to memory
	size   int64   // bytes given an offset, written or in batch
	batch  *[]byte // the batch being filled; its first byte is at size-len(*batch)
	// free holds the buffers of batches written, for the next ones: kept
	// for the writer's life (a sync.Pool would drop them at every garbage
	// collection, and the new ones would make the heap grow).
	free *buffers
}

// spillBatch is a full batch to write at off, or nothing. Its buffer goes
// back to free once written, unless free is nil (an object written as it
// is).
type spillBatch struct {
	file *os.File
	buf  *[]byte
	off  int64
	free *buffers
}

// open makes the temporary file if there is none yet and reports whether
// there is one.
func (s *spill) open() bool {
	if s.file != nil {
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
	s.file = f
	return true
}

// add appends data to the batch and returns its offset in the file, with
// the batch to write if data did not fit in it: a batch is not grown. An
// object larger than a batch is not copied: it is the second batch to
// write, straight from data, which must stay unchanged until then.
func (s *spill) add(data []byte) (off int64, full, large spillBatch) {
	if s.free == nil {
		s.free = newBuffers(spillBuffers, spillBatchSize, spillBatchSize)
	}
	if s.batch != nil && len(*s.batch)+len(data) > cap(*s.batch) {
		full = s.take()
	}
	if len(data) > spillBatchSize {
		off = s.size
		s.size += int64(len(data))
		return off, full, spillBatch{file: s.file, buf: &data, off: off}
	}
	if s.batch == nil {
		s.batch = s.free.get()
	}
	off = s.size
	*s.batch = append(*s.batch, data...)
	s.size += int64(len(data))
	return off, full, spillBatch{}
}

// take takes the batch being filled, to write.
func (s *spill) take() spillBatch {
	b := spillBatch{file: s.file, buf: s.batch, off: s.size - int64(len(*s.batch)), free: s.free}
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
		b.free.put(b.buf)
	}
	if err != nil {
		return fmt.Errorf("writing temporary file: %w", err)
	}
	return nil
}

// finish writes the batch being filled; every full batch must be written.
func (s *spill) finish() error {
	if s.batch == nil {
		return nil
	}
	return s.take().write()
}

// close releases the file.
func (s *spill) close() error {
	s.batch, s.free = nil, nil
	if s.file == nil {
		return nil
	}
	name := s.file.Name()
	err := s.file.Close()
	if runtime.GOOS == "windows" {
		_ = os.Remove(name)
	}
	s.file = nil
	return err
}

// output writes an OrderedWriter's objects in order through one buffer:
// objects in the temporary file are read straight into it, and objects
// next to each other in the file as well as in the output are read at
// once.
type output struct {
	w     io.Writer
	file  *os.File
	buf   []byte
	total int64
	// pending is a range of the file still to read into buf[pendAt:].
	pendOff int64
	pendLen int
	pendAt  int
}

const outputBufSize = 256 << 10

func newOutput(w io.Writer, file *os.File) *output {
	return &output{w: w, file: file, buf: make([]byte, 0, outputBufSize)}
}

// fromFile adds n bytes of the file at off.
func (o *output) fromFile(off int64, n int) error {
	if o.pendLen > 0 && o.pendOff+int64(o.pendLen) == off && len(o.buf)+n <= cap(o.buf) {
		o.pendLen += n
		o.buf = o.buf[:len(o.buf)+n]
		return nil
	}
	if err := o.read(); err != nil {
		return err
	}
	if len(o.buf)+n > cap(o.buf) {
		if err := o.flush(); err != nil {
			return err
		}
	}
	if n > cap(o.buf) {
		big := make([]byte, n)
		if _, err := o.file.ReadAt(big, off); err != nil {
			return fmt.Errorf("reading temporary file: %w", err)
		}
		return o.write(big)
	}
	o.pendOff, o.pendLen, o.pendAt = off, n, len(o.buf)
	o.buf = o.buf[:len(o.buf)+n]
	return nil
}

// fromMemory adds data.
func (o *output) fromMemory(data []byte) error {
	if err := o.read(); err != nil {
		return err
	}
	if len(o.buf)+len(data) > cap(o.buf) {
		if err := o.flush(); err != nil {
			return err
		}
	}
	if len(data) > cap(o.buf) {
		return o.write(data)
	}
	o.buf = append(o.buf, data...)
	return nil
}

// read reads the pending range of the file into the buffer.
func (o *output) read() error {
	if o.pendLen == 0 {
		return nil
	}
	_, err := o.file.ReadAt(o.buf[o.pendAt:o.pendAt+o.pendLen], o.pendOff)
	o.pendLen = 0
	if err != nil {
		return fmt.Errorf("reading temporary file: %w", err)
	}
	return nil
}

// flush writes the buffer.
func (o *output) flush() error {
	if err := o.read(); err != nil {
		return err
	}
	err := o.write(o.buf)
	o.buf = o.buf[:0]
	return err
}

func (o *output) write(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	n, err := o.w.Write(data)
	o.total += int64(n)
	return err
}
