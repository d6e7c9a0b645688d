package author

import (
	"bytes"
	"fmt"
	"io"
)

// The kinds of file a plan changes.
const (
	KindTemplate = "template"
	KindCatalog  = "catalog"
)

// FileChange is one file a plan writes.
type FileChange struct {
	Path string // relative to the repository root, slash-separated
	Kind string // KindTemplate or KindCatalog
	Old  []byte // the committed text; nil for a new file
	New  []byte
}

// Plan is what a verb changes in a repository: every file is written by
// Apply, or none.
type Plan struct {
	Root    string
	Changes []FileChange
	// Summary says in one line what the verb did.
	Summary string
	// Notes are things the user should know (never problems: those are
	// errors).
	Notes []string

	// step, when set, is called at each step of Apply (tests kill the
	// process there).
	step func(name string)
}

// Plural is "1 catalog", "2 catalogs".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// add records a change, unless the new text is the old one.
func (p *Plan) add(path, kind string, old, new []byte) {
	if old != nil && bytes.Equal(old, new) {
		return
	}
	p.Changes = append(p.Changes, FileChange{Path: path, Kind: kind, Old: old, New: new})
}

// Diff writes the unified diff of every change.
func (p *Plan) Diff(w io.Writer) error {
	for _, c := range p.Changes {
		if err := UnifiedDiff(w, c.Path, c.Old, c.New); err != nil {
			return err
		}
	}
	return nil
}
