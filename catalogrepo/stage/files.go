package stage

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
)

// writeBuffer is how much of a text is written at once: a rendered
// catalog is thousands of small pieces (see Text), one system call each
// unbuffered.
const writeBuffer = 256 << 10

// writeText writes t to a new file and syncs it; it returns t's digest.
func writeText(name string, t Text, mode fs.FileMode) (string, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return "", err
	}
	h := newDigestHash(digestAlgo)
	w := bufio.NewWriterSize(f, writeBuffer)
	for _, p := range t {
		if err == nil {
			h.Write(p)
			_, err = w.Write(p)
		}
	}
	if err == nil {
		err = w.Flush()
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
		return "", err
	}
	return digestOf(digestAlgo, h, int64(t.Size())), nil
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
	h := newDigestHash(digestAlgo)
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
	return st.Mode().Perm(), digestOf(digestAlgo, h, n), nil
}

// syncDir syncs a directory, so that the renames in it last.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	d.Sync() // not every file system syncs directories; the rename is what matters
	return nil
}

// sameDigest reports whether a file holds the text of a digest ("" for a
// file that does not exist).
func sameDigest(name, want string) (bool, error) {
	algo, _, _ := strings.Cut(want, ":")
	_, got, err := fileDigestWith(name, algo)
	if errors.Is(err, fs.ErrNotExist) {
		return want == "", nil
	}
	if err != nil {
		return false, err
	}
	return want != "" && got == want, nil
}

// sameFile reports whether file a holds the bytes of file b (false when
// a does not exist).
func sameFile(a, b string) (bool, error) {
	db, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	same, err := Holds(a, Text{db})
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return same, err
}
