package image

import (
	"archive/tar"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/fbcat/opm/internal/fserr"
)

// maxMetadataSize bounds the index, manifest and configuration files read
// from layouts and archives into memory.
const maxMetadataSize = 16 << 20

// blobSource gives the files of an OCI layout or an image archive by
// their slash paths.
type blobSource interface {
	open(name string) (io.ReadCloser, error)
	String() string
}

// dirBlobs is an OCI layout directory. Files are opened through an
// os.Root, so symbolic links cannot lead out of it.
type dirBlobs string

func (d dirBlobs) String() string { return "OCI layout " + string(d) }

func (d dirBlobs) open(name string) (io.ReadCloser, error) {
	root, err := os.OpenRoot(string(d))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no such directory: %s", string(d))
		}
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d, fserr.WithPath(err))
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %s is not a regular file", d, name)
	}
	return f, nil
}

// tarIndex is a tar file (an OCI archive or a docker archive) whose
// entries are read in place: one pass finds where each file's data is.
type tarIndex struct {
	file    string
	entries map[string]tarEntry
}

type tarEntry struct {
	offset, size int64
	link         string // the target of a (hard or symbolic) link
}

func indexTar(file string) (*tarIndex, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fserr.WithPath(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not an archive (for an OCI layout directory write oci:%s)", file, file)
	}
	t := &tarIndex{file: file, entries: map[string]tarEntry{}}
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("archive %s: not a readable tar file: %w", file, err)
		}
		name := path.Clean(strings.TrimPrefix(hdr.Name, "./"))
		switch hdr.Typeflag {
		case tar.TypeReg:
			offset, err := f.Seek(0, io.SeekCurrent)
			if err != nil {
				return nil, err
			}
			t.entries[name] = tarEntry{offset: offset, size: hdr.Size}
		case tar.TypeSymlink:
			t.entries[name] = tarEntry{link: path.Join(path.Dir(name), hdr.Linkname)}
		case tar.TypeLink:
			t.entries[name] = tarEntry{link: path.Clean(hdr.Linkname)}
		}
	}
	if len(t.entries) == 0 {
		return nil, fmt.Errorf("archive %s holds no files", file)
	}
	return t, nil
}

func (t *tarIndex) String() string { return "archive " + t.file }

func (t *tarIndex) open(name string) (io.ReadCloser, error) {
	e, ok := t.entries[name]
	for hops := 0; ok && e.link != "" && hops < 16; hops++ {
		e, ok = t.entries[e.link]
	}
	if !ok || e.link != "" {
		return nil, fmt.Errorf("archive %s has no file %s", t.file, name)
	}
	f, err := os.Open(t.file)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.NewSectionReader(f, e.offset, e.size), f}, nil
}

// readSmall reads a metadata file, refusing huge ones.
func readSmall(src blobSource, name string) ([]byte, error) {
	rc, err := src.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxMetadataSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %w", src, name, err)
	}
	if len(data) > maxMetadataSize {
		return nil, fmt.Errorf("%s: %s is larger than %d MiB", src, name, maxMetadataSize>>20)
	}
	return data, nil
}

// blobPath is where a layout keeps the blob of a digest; only sha256
// digests of the right form are accepted, so the path cannot be steered.
func blobPath(h v1.Hash) (string, error) {
	if h.Algorithm != "sha256" || len(h.Hex) != 64 || strings.ToLower(h.Hex) != h.Hex {
		return "", fmt.Errorf("unsupported digest %q", h)
	}
	if _, err := hex.DecodeString(h.Hex); err != nil {
		return "", fmt.Errorf("invalid digest %q", h)
	}
	return "blobs/sha256/" + h.Hex, nil
}

// readBlob reads a metadata blob and checks its digest.
func readBlob(src blobSource, h v1.Hash) ([]byte, error) {
	p, err := blobPath(h)
	if err != nil {
		return nil, err
	}
	data, err := readSmall(src, p)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != h.Hex {
		return nil, fmt.Errorf("%s: blob %s does not match its digest", src, h)
	}
	return data, nil
}

// localLayer is a layer read from a layout or an archive. Its content is
// checked against its digest (when the layer is stored compressed under
// its digest) and, uncompressed, against the configuration's diff ID.
type localLayer struct {
	src       blobSource
	name      string   // the file in src
	digest    *v1.Hash // of the stored blob, when known
	diffID    v1.Hash
	mediaType types.MediaType
}

func (l *localLayer) DiffID() (v1.Hash, error)            { return l.diffID, nil }
func (l *localLayer) MediaType() (types.MediaType, error) { return l.mediaType, nil }

// Uncompressed opens the layer, decompressing gzip or zstd as it finds
// them.
func (l *localLayer) Uncompressed() (io.ReadCloser, error) {
	rc, err := l.src.open(l.name)
	if err != nil {
		return nil, err
	}
	var r io.Reader = rc
	if l.digest != nil {
		r = &verifier{r: r, h: sha256.New(), want: *l.digest, what: "layer blob " + l.name}
	}
	br := bufio.NewReader(r)
	magic, _ := br.Peek(4)
	closers := []io.Closer{rc}
	var plain io.Reader = br
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			rc.Close()
			return nil, fmt.Errorf("layer %s: %w", l.name, err)
		}
		plain, closers = zr, append(closers, zr)
	case bytes.Equal(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		zr, err := zstd.NewReader(br)
		if err != nil {
			rc.Close()
			return nil, fmt.Errorf("layer %s: %w", l.name, err)
		}
		plain, closers = zr, append(closers, zr.IOReadCloser())
	}
	return &multiCloser{
		Reader:  &verifier{r: plain, h: sha256.New(), want: l.diffID, what: "layer " + l.name + " (uncompressed)"},
		closers: closers,
	}, nil
}

type multiCloser struct {
	io.Reader
	closers []io.Closer
}

func (m *multiCloser) Close() error {
	var errs []error
	for i := len(m.closers) - 1; i >= 0; i-- {
		errs = append(errs, m.closers[i].Close())
	}
	return errors.Join(errs...)
}

// verifier hashes what is read through it and fails at the end when the
// sum is not the expected digest.
type verifier struct {
	r    io.Reader
	h    hash.Hash
	want v1.Hash
	what string
}

func (v *verifier) Read(p []byte) (int, error) {
	n, err := v.r.Read(p)
	v.h.Write(p[:n])
	if errors.Is(err, io.EOF) {
		if got := hex.EncodeToString(v.h.Sum(nil)); v.want.Algorithm != "sha256" || got != v.want.Hex {
			return n, fmt.Errorf("%s does not match its digest %s (sha256:%s)", v.what, v.want, got)
		}
	}
	return n, err
}
