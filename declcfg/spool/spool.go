// Package spool keeps pieces of output (encoded catalog objects) until
// they can be written in an order known only at the end: the first ones
// in memory, up to a budget, the rest in an unlinked temporary file,
// written in batches and read back in the order asked for. declcfg's
// OrderedWriter files a catalog's objects here while they are loaded and
// writes them in upstream's order once every object is known.
package spool

import (
	"io"
	"sync"
)

// Ref is where a piece added to a Spool is kept.
type Ref struct {
	off   int64 // in the memory chunk or the file
	len   int
	chunk int // index of the memory chunk, or -1 in the file
}

// Len is the length of the piece.
func (r Ref) Len() int { return r.len }

// Memory chunks start at firstChunk and double up to chunkSize, so that a
// small output does not cost a large allocation.
const (
	firstChunk = 64 << 10
	chunkSize  = 4 << 20
)

// Spool keeps pieces of output. Its methods are safe for concurrent use,
// but WriteTo and Close, which must run after every Add.
type Spool struct {
	budget int

	mu      sync.Mutex
	chunks  [][]byte
	memUsed int
	file    file
	err     error
}

// New returns a spool that keeps up to budget bytes in memory and the
// rest in a temporary file; if no temporary file can be made, it keeps
// everything in memory. Close releases the file.
func New(budget int) *Spool { return &Spool{budget: budget} }

// Add copies data into the spool and returns where it is kept. data may
// change once Add returns.
func (s *Spool) Add(data []byte) (Ref, error) {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return Ref{}, s.err
	}
	if s.memUsed+len(data) > s.budget && s.file.open() {
		off, full, large := s.file.add(data)
		s.mu.Unlock()
		// The batches are written without holding the lock.
		err := full.write()
		if err == nil {
			err = large.write()
		}
		if err != nil {
			s.mu.Lock()
			s.err = err
			s.mu.Unlock()
			return Ref{}, err
		}
		return Ref{off: off, len: len(data), chunk: -1}, nil
	}
	r := s.addToMemory(data)
	s.mu.Unlock()
	return r, nil
}

// addToMemory copies data into the memory chunks. s.mu is held.
func (s *Spool) addToMemory(data []byte) Ref {
	n := len(s.chunks) - 1
	if n < 0 || len(s.chunks[n])+len(data) > cap(s.chunks[n]) {
		size := firstChunk
		if n >= 0 {
			size = min(2*cap(s.chunks[n]), chunkSize)
		}
		s.chunks = append(s.chunks, make([]byte, 0, max(size, len(data))))
		n++
	}
	r := Ref{chunk: n, off: int64(len(s.chunks[n])), len: len(data)}
	s.chunks[n] = append(s.chunks[n], data...)
	s.memUsed += len(data)
	return r
}

// Spilled reports whether a temporary file holds any piece.
func (s *Spool) Spilled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.file.f != nil
}

// WriteTo writes the pieces refs lists to out, in that order, and
// returns the number of bytes written. Pieces next to each other in the
// temporary file and in refs are read at once.
func (s *Spool) WriteTo(out io.Writer, refs func(yield func(Ref) bool)) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return 0, s.err
	}
	if err := s.file.finish(); err != nil {
		s.err = err
		return 0, err
	}
	o := newOutput(out, s.file.f)
	for r := range refs {
		var err error
		if r.chunk < 0 {
			err = o.fromFile(r.off, r.len)
		} else {
			err = o.fromMemory(s.chunks[r.chunk][r.off : r.off+int64(r.len)])
		}
		if err != nil {
			return o.total, err
		}
	}
	return o.total, o.flush()
}

// Close releases the memory and the temporary file.
func (s *Spool) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chunks = nil
	return s.file.close()
}
