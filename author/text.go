package author

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc64"
	"io"
	"io/fs"
	"os"
)

// text is a file's text in pieces, written one after the other. The
// rendered catalogs of a package share the pieces of the bundles they
// have in common, so a plan holds each bundle's text once however many
// catalogs it rewrites.
type text [][]byte

// size is the text's length in bytes.
func (t text) size() int {
	n := 0
	for _, p := range t {
		n += len(p)
	}
	return n
}

// join is the text in one piece.
func (t text) join() []byte {
	out := make([]byte, 0, t.size())
	for _, p := range t {
		out = append(out, p...)
	}
	return out
}

// digest is digest(t.join()), without joining.
func (t text) digest() string {
	var sum uint64
	for _, p := range t {
		sum = crc64.Update(sum, crcTable, p)
	}
	return digestOf(sum, int64(t.size()))
}

// reader reads the text.
func (t text) reader() io.Reader {
	rs := make([]io.Reader, len(t))
	for i, p := range t {
		rs[i] = bytes.NewReader(p)
	}
	return io.MultiReader(rs...)
}

// digestOf formats a CRC-64 and a length as digest does (the length
// last: Plan.addDigested relies on it).
func digestOf(sum uint64, size int64) string {
	return fmt.Sprintf("crc64:%016x:%d", sum, size)
}

// fileDigest is the digest of the file name's text, and its permissions,
// read a piece at a time.
func fileDigest(name string) (fs.FileMode, string, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, "", err
	}
	h := crc64.New(crcTable)
	n, err := io.CopyBuffer(h, f, make([]byte, 64<<10))
	if err != nil {
		return 0, "", err
	}
	return st.Mode().Perm(), digestOf(h.Sum64(), n), nil
}

// readDigested reads the file name, which must still hold the text of
// digest want: its text, as a plan read it, is needed again (for a diff).
func readDigested(name, rel, want string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", rel, err)
	}
	if digest(data) != want {
		return nil, fmt.Errorf("%s changed while opm was working on it: run the command again", rel)
	}
	return data, nil
}

// holdsText reports whether the file name holds exactly t, and its
// permissions, reading it a piece at a time: catalogs are megabytes, and
// a release checks several at once.
func holdsText(name string, t text) (fs.FileMode, bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	mode := st.Mode().Perm()
	if st.Size() != int64(t.size()) {
		return mode, false, nil
	}
	want := t.reader()
	buf, wbuf := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		n, err := io.ReadFull(f, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && err != io.EOF {
			return 0, false, err
		}
		m, _ := io.ReadFull(want, wbuf[:n])
		if m != n || !bytes.Equal(buf[:n], wbuf[:n]) {
			return mode, false, nil
		}
		if err != nil { // the file's end
			m, _ := want.Read(wbuf[:1])
			return mode, m == 0, nil
		}
	}
}

// holds is holdsText of a text in one piece.
func holds(name string, data []byte) (fs.FileMode, bool, error) {
	return holdsText(name, text{data})
}

// writeText writes t to a new file and syncs it.
func writeText(name string, t text, mode fs.FileMode) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	for _, p := range t {
		if err == nil {
			_, err = f.Write(p)
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, mode) // whatever the umask
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// keepOld keeps the file target's text as the file old, a hard link to
// it when the file system allows, else a copy, so that a failed run can
// put it back; it returns the kept text's digest and permissions.
func keepOld(target, old string) (fs.FileMode, string, error) {
	st, err := os.Lstat(target)
	if err != nil {
		return 0, "", err
	}
	if st.Mode().IsRegular() { // a link would be to the link, not what it names
		if err := os.Link(target, old); err == nil {
			return fileDigest(old)
		}
	}
	src, err := os.Open(target)
	if err != nil {
		return 0, "", err
	}
	defer src.Close()
	if st, err = src.Stat(); err != nil {
		return 0, "", err
	}
	dst, err := os.OpenFile(old, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, "", err
	}
	h := crc64.New(crcTable)
	n, err := io.CopyBuffer(io.MultiWriter(dst, h), src, make([]byte, 64<<10))
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(old, st.Mode().Perm())
	}
	if err != nil {
		os.Remove(old)
		return 0, "", err
	}
	return st.Mode().Perm(), digestOf(h.Sum64(), n), nil
}
