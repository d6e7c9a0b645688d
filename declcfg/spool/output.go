package spool

import (
	"fmt"
	"io"
	"os"
)

// output writes a spool's pieces in order through one buffer:
// pieces in the temporary file are read straight into it, and pieces
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
		return o.large(off, n)
	}
	o.pendOff, o.pendLen, o.pendAt = off, n, len(o.buf)
	o.buf = o.buf[:len(o.buf)+n]
	return nil
}

// large writes n bytes of the file at off, more than the buffer holds,
// through the buffer, which is empty: a piece of several megabytes (a
// bundle's CSV metadata) is not given a buffer of its own, whose pages
// would be allocated, zeroed and faulted in for one read.
func (o *output) large(off int64, n int) error {
	for n > 0 {
		part := o.buf[:min(n, cap(o.buf))]
		if _, err := o.file.ReadAt(part, off); err != nil {
			return fmt.Errorf("reading temporary file: %w", err)
		}
		if err := o.write(part); err != nil {
			return err
		}
		off += int64(len(part))
		n -= len(part)
	}
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
