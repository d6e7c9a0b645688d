package stage

import (
	"bytes"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
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
	h := newDigestHash(digestAlgo)
	for _, p := range t {
		h.Write(p)
	}
	return digestOf(digestAlgo, h, int64(t.Size()))
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
// since it was read: "crc32c:<CRC-32C>:<length>" (the processor computes
// CRC-32C at memory speed, and catalogs are megabytes; no adversary is
// involved). It ends in ":<length>", so a caller can tell a text of
// another length without digesting it.
func Digest(data []byte) string {
	h := newDigestHash(digestAlgo)
	h.Write(data)
	return digestOf(digestAlgo, h, int64(len(data)))
}

// digestAlgo names what Digest computes. A journal an older opm wrote
// names "crc64" (CRC-64 ECMA), which sameDigest still reads.
const digestAlgo = "crc32c"

var (
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
	crc64Table = crc64.MakeTable(crc64.ECMA)
)

// newDigestHash is the hash of a digest algorithm.
func newDigestHash(algo string) hash.Hash {
	if algo == "crc64" {
		return crc64.New(crc64Table)
	}
	return crc32.New(castagnoli)
}

// digestOf formats a hash of an algorithm and a length as Digest does.
func digestOf(algo string, h hash.Hash, size int64) string {
	return fmt.Sprintf("%s:%x:%d", algo, h.Sum(nil), size)
}

// fileDigest is the digest of the file name's text, and its permissions,
// read a piece at a time.
func fileDigest(name string) (fs.FileMode, string, error) {
	return fileDigestWith(name, digestAlgo)
}

// fileDigestWith is fileDigest by an algorithm of Digest's.
func fileDigestWith(name, algo string) (fs.FileMode, string, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, "", err
	}
	h := newDigestHash(algo)
	n, err := io.CopyBuffer(h, f, make([]byte, 64<<10))
	if err != nil {
		return 0, "", err
	}
	return st.Mode().Perm(), digestOf(algo, h, n), nil
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
