package suites

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
)

// Store keeps what the suites said of bundle directories on disk, by their
// content, so that a repository linted again (a maintainer's next run, a
// job over every operator) does not run the suites again on bundles that
// did not change. A bundle's key is the sum of every file of its
// manifests/ and metadata/ (names and content), of the name it is called
// by in messages, of the Kubernetes version, and of Salt: what tells one
// build of the validators from another (the program's version). Reading
// and writing are best effort: a store that cannot be read or written is
// one that keeps nothing.
type Store struct {
	// Dir is where results are kept, one file a bundle.
	Dir string
	// Salt is mixed into every key: a build whose validators may differ
	// must give another.
	Salt string
}

// storeFormat is the version of what a stored result holds; a change of
// Result's encoding changes it.
const storeFormat = "osdk-result-1"

// Key is the key of the bundle b: "" when its files cannot all be read
// (then nothing is stored of it). The sums are those of the files as
// registryv1 read them; only the hidden files of manifests/, which it
// does not read, are read here.
func (s *Store) Key(b *Bundle) string {
	if s == nil || s.Dir == "" {
		return ""
	}
	h := sha256.New()
	for _, part := range []string{storeFormat, s.Salt, b.Dir, b.KubernetesVersion} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	f := b.Files
	for _, m := range f.Manifests {
		sum := m.Sum
		if !m.Entry.IsDir() && m.Skipped() { // a hidden file
			data, err := fs.ReadFile(f.FS, m.File)
			if err != nil {
				return ""
			}
			sum = sha256.Sum256(data)
		}
		writeEntry(h, m.File, m.Entry.IsDir(), sum)
	}
	for _, m := range f.Metadata {
		writeEntry(h, m.File, m.Entry.IsDir(), m.Sum)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeEntry adds an entry of the bundle to a key: its path and, for a
// file, the sum of its content.
func writeEntry(h hash.Hash, name string, dir bool, sum [sha256.Size]byte) {
	h.Write([]byte(name))
	h.Write([]byte{0})
	if !dir {
		h.Write(sum[:])
	}
}

// Load is the result stored under key, if any.
func (s *Store) Load(key string) (*Result, bool) {
	if key == "" {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(s.Dir, key+".json"))
	if err != nil {
		return nil, false
	}
	r := &Result{}
	if json.Unmarshal(data, r) != nil {
		return nil, false
	}
	return r, true
}

// Save stores a result under key, written whole or not at all.
func (s *Store) Save(key string, r *Result) {
	if key == "" {
		return
	}
	data, err := json.Marshal(r)
	if err != nil || os.MkdirAll(s.Dir, 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(s.Dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(s.Dir, key+".json")) != nil {
		_ = os.Remove(tmp.Name())
	}
}
