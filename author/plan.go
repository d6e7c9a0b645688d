package author

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/fbcat/opm/author/textdiff"
	"github.com/fbcat/opm/catalogrepo/stage"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/option"
)

// The kinds of file a plan changes.
const (
	KindTemplate = "template"
	KindCatalog  = "catalog"
)

// FileChange is one file a plan writes. It holds the new text (in pieces
// that the catalogs of a package share) but not the committed one, which
// stays on disk: Plan.OldText reads it again.
type FileChange struct {
	Path string // relative to the repository root, slash-separated
	Kind string // KindTemplate or KindCatalog
	// Created says the file does not exist yet.
	Created bool

	old string // the digest of the committed text; "" for a new file
	new text
}

// NewText is the text the change writes.
func (c FileChange) NewText() []byte { return c.new.Join() }

// OldText is the committed text a change replaces, read again from disk
// (nil for a new file); it is an error if the file has changed since the
// plan was made.
func (p *Plan) OldText(c FileChange) ([]byte, error) {
	if c.Created {
		return nil, nil
	}
	data, err := os.ReadFile(filepath.Join(p.Root, filepath.FromSlash(c.Path)))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", c.Path, err)
	}
	if stage.Digest(data) != c.old {
		return nil, fmt.Errorf("%s changed while opm was working on it: run the command again", c.Path)
	}
	return data, nil
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
	// Incomplete are what the plan writes without for want of an option,
	// which each one names (option.Lifts): the icon of a semver template's
	// package, when only the image of the bundle heading its default
	// channel holds the CSV it comes from (Options.Pull).
	Incomplete []*option.Error

	gaps []planGap // the gaps Incomplete says, by head
}

// planGap is an iconGap of the catalogs cats, said by Incomplete[i].
type planGap struct {
	gap  iconGap
	cats []string
	i    int
}

// addGap records that catalog cat was written without what gap says,
// together with the other catalogs of the same gap.
func (p *Plan) addGap(cat string, gap *iconGap) {
	for k := range p.gaps {
		if g := &p.gaps[k]; g.gap == *gap {
			g.cats = append(g.cats, cat)
			p.Incomplete[g.i].Problem = gap.problem(g.cats)
			return
		}
	}
	p.gaps = append(p.gaps, planGap{gap: *gap, cats: []string{cat}, i: len(p.Incomplete)})
	p.Incomplete = append(p.Incomplete, needPull(gap.problem([]string{cat})))
}

// add records a change of a file whose committed text is old (nil for a
// new file), unless the new text is the old one.
func (p *Plan) add(path, kind string, old []byte, new text) {
	sum := ""
	if old != nil {
		sum = stage.Digest(old)
	}
	p.addDigested(path, kind, old != nil, sum, new)
}

// addDigested records a change of a file whose committed text has digest
// sum, unless the file holds the new text: a text of the same digest is
// compared with the file (one of another size is not digested).
func (p *Plan) addDigested(path, kind string, exists bool, sum string, new text) {
	if exists && strings.HasSuffix(sum, ":"+strconv.Itoa(new.Size())) && new.Digest() == sum {
		if same, err := stage.Holds(filepath.Join(p.Root, filepath.FromSlash(path)), new); err == nil && same {
			return
		}
	}
	c := FileChange{Path: path, Kind: kind, Created: !exists, new: new}
	if exists {
		c.old = sum
	}
	p.Changes = append(p.Changes, c)
}

// Diff writes the unified diff of every change. It reads the committed
// texts again, so it is for a plan not yet applied.
func (p *Plan) Diff(w io.Writer) error {
	return p.eachDiff(w, textdiff.Unified)
}

// ReadableDiff writes the unified diff of every change summarised for
// reading (see textdiff.Readable, which says what full is).
func (p *Plan) ReadableDiff(w io.Writer, full string) error {
	return p.eachDiff(w, func(w io.Writer, name string, old, new []byte) error {
		return textdiff.Readable(w, name, old, new, full)
	})
}

// eachDiff writes the diff of every change with diff, in order. The
// diffs are made a few at a time, as Apply writes the files: each reads
// its old text from disk and joins its new one, and no more are held at
// once than are made at once.
func (p *Plan) eachDiff(w io.Writer, diff func(w io.Writer, name string, old, new []byte) error) error {
	batch := runtime.GOMAXPROCS(0)
	out, errs := make([]bytes.Buffer, batch), make([]error, batch)
	for start := 0; start < len(p.Changes); start += batch {
		changes := p.Changes[start:min(start+batch, len(p.Changes))]
		// Every change before the first that fails is diffed (see
		// parallel.Do), so the diffs before it are written, as one by one.
		_ = parallel.Do(context.Background(), len(changes), batch, func(i int) error {
			out[i].Reset()
			old, err := p.OldText(changes[i])
			if err == nil {
				err = diff(&out[i], changes[i].Path, old, changes[i].NewText())
			}
			errs[i] = err
			return err
		})
		for i := range changes {
			if errs[i] != nil {
				return errs[i]
			}
			if _, err := w.Write(out[i].Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
}
