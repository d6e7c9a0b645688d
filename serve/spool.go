package serve

import (
	"io"
	"os"
	"runtime"
	"sync"
)

// spool is append-only storage for what the HTTP API serves, so that a
// catalog's JSON is not held in memory: an unlinked temporary file (nothing
// is left behind, even after a crash), or memory when no temporary file can
// be made (a read-only file system).
type spool struct {
	mu   sync.Mutex
	f    *os.File
	mem  []byte
	size int64
}

func newSpool() *spool {
	s := &spool{}
	if f, err := os.CreateTemp("", "opm-serve-*"); err == nil {
		if runtime.GOOS != "windows" {
			_ = os.Remove(f.Name())
		}
		s.f = f
	}
	return s
}

// Write appends p.
func (s *spool) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		s.mem = append(s.mem, p...)
		s.size += int64(len(p))
		return len(p), nil
	}
	n, err := s.f.WriteAt(p, s.size)
	s.size += int64(n)
	return n, err
}

// ReadAt reads what was written at off.
func (s *spool) ReadAt(p []byte, off int64) (int, error) {
	if s.f != nil {
		return s.f.ReadAt(p, off)
	}
	if off >= int64(len(s.mem)) {
		return 0, io.EOF
	}
	n := copy(p, s.mem[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Size is how much was written.
func (s *spool) Size() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size
}

// reader reads everything written so far.
func (s *spool) reader() *io.SectionReader { return io.NewSectionReader(s, 0, s.Size()) }

// Close releases the storage.
func (s *spool) Close() error {
	s.mem = nil
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	if runtime.GOOS == "windows" {
		_ = os.Remove(s.f.Name())
	}
	return err
}
