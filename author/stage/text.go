package stage

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc64"
	"io"
	"io/fs"
	"os"
)

// Text is a file's text in pieces, written one after the other. The
// rendered catalogs of a package share the pieces of the bundles they
// have in common, so a set of files holds each bundle's text once however
// many catalogs it rewrites.
type Text [][]byte

// Size is the text's length in bytes.
func (t Text) Size() int {
	n := 0
	for _, p := range t {
		n += len(p)
	}
	return n
}

// Join is the text in one piece.
func (t Text) Join() []byte {
	out := make([]byte, 0, t.Size())
	for _, p := range t {
		out = append(out, p...)
	}
	return out
}

// Digest is Digest(t.Join()), without joining.
func (t Text) Digest() string {
	var sum uint64
	for _, p := range t {
		sum = crc64.Update(sum, crcTable, p)
	}
	return digestOf(sum, int64(t.Size()))
}

// reader reads the text.
func (t Text) reader() io.Reader {
	rs := make([]io.Reader, len(t))
	for i, p := range t {
		rs[i] = bytes.NewReader(p)
	}
	return io.MultiReader(rs...)
}

// Digest identifies a text well enough to tell whether a file was edited
// since it was read (CRC-64 and length: fast on catalogs of megabytes; no
// adversary is involved). It ends in ":<length>", so a caller can tell a
// text of another length without digesting it.
func Digest(data []byte) string {
	return digestOf(crc64.Checksum(data, crcTable), int64(len(data)))
}

var crcTable = crc64.MakeTable(crc64.ECMA)

// digestOf formats a CRC-64 and a length as Digest does.
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

// Holds reports whether the file name holds exactly t, reading it a
// piece at a time: catalogs are megabytes, and a release checks several
// at once. A file that does not exist is an error.
func Holds(name string, t Text) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	if st.Size() != int64(t.Size()) {
		return false, nil
	}
	want := t.reader()
	buf, wbuf := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		n, err := io.ReadFull(f, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && err != io.EOF {
			return false, err
		}
		m, _ := io.ReadFull(want, wbuf[:n])
		if m != n || !bytes.Equal(buf[:n], wbuf[:n]) {
			return false, nil
		}
		if err != nil { // the file's end
			m, _ := want.Read(wbuf[:1])
			return m == 0, nil
		}
	}
}
