// Drift: whether a committed catalog is what its template renders, text
// and all, and where it first is not.

package author

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/fbcat/opm/author/stage"
	"github.com/fbcat/opm/author/textdiff"
	"github.com/fbcat/opm/declcfg"
)

// Difference is where a committed catalog first differs from what its
// template renders: the catalog's line and what is there.
type Difference struct {
	Path     string // the catalog, relative to the root
	Template string // its template, relative to the root
	// Line is the committed text's first line that is not what the
	// template renders (1 is the first; one past the last when the
	// committed text ends where the rendering goes on).
	Line int
	// What says in words what differs at Line (a comment, white space,
	// the objects written differently, or the line the template renders).
	What string
}

// String is "catalogs/v4.17/p/catalog.yaml:12 (from T): what".
func (d Difference) String() string {
	return fmt.Sprintf("%s:%d (from %s): %s", d.Path, d.Line, d.Template, d.What)
}

// sameText reports whether the committed catalog's text is the text
// rendering cfg writes (r.Config's, or the committed style's, see same),
// and keeps that text for telling where they differ. Catalogs written by
// opm are byte for byte what their objects encode to, so any other text
// is a hand edit, comments and white space included. Line ends do not
// count: a checkout may turn "\n" into "\r\n".
func (r *Expanded) sameText(cfg *declcfg.DeclarativeConfig) bool {
	var t text
	var err error
	if cfg == r.Config {
		t, err = r.text()
	} else {
		t, err = r.encoder().write(cfg, r.Catalog.Format)
	}
	if err != nil {
		return false // writing the plan reports it
	}
	r.compared = t
	c := r.Catalog
	return c.textLen == t.Size() && t.Digest() == c.textSum
}

// encoder is the writer the expanded catalog's text comes from.
func (r *Expanded) encoder() *encoder {
	if r.enc == nil {
		r.enc = newEncoder()
	}
	return r.enc
}

// setTextSum records what sameText compares a committed text by: its
// digest and length with "\r\n" read as "\n". c.sum is set.
func (c *Catalog) setTextSum(data []byte) {
	if !bytes.Contains(data, []byte("\r\n")) {
		c.textLen, c.textSum = len(data), c.sum
		return
	}
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	c.textLen, c.textSum = len(data), stage.Digest(data)
}

// difference reads the committed catalog again and says where it first
// differs from the text it was compared with (see sameText).
func (r *Expanded) difference() (Difference, error) {
	c := r.Catalog
	d := Difference{Path: c.Path, Template: c.Template.Path}
	old, err := os.ReadFile(c.file)
	if err != nil {
		return d, fmt.Errorf("reading %s: %w", c.Path, err)
	}
	rendered := r.compared
	if rendered == nil {
		if rendered, err = r.text(); err != nil {
			return d, err
		}
	}
	f := textdiff.FirstDifference(old, rendered.Join())
	d.Line, d.What = max(f.Line, 1), f.What("the template", "render")
	switch {
	case f.Kind == textdiff.Comment:
		d.What += ": rendering drops it, so keep comments in the template"
	case f.Kind == textdiff.Other && r.textOnly:
		d.What = "the objects the template renders, written differently (reordered or reformatted): " + d.What
	}
	return d, nil
}

// refuseDrift refuses to overwrite the catalogs that are not what their
// templates render, naming the line where each first differs; nil when
// every one is.
func (p *Package) refuseDrift(matches []matched) error {
	var drifted []string
	for _, r := range matches {
		if r.same {
			continue
		}
		d, err := r.difference()
		if err != nil {
			return err
		}
		drifted = append(drifted, d.String())
	}
	if len(drifted) == 0 {
		return nil
	}
	return refuse("%w", needOverwrite("refusing to overwrite catalogs that differ from what their templates render (edited by hand?):\n  "+strings.Join(drifted, "\n  "), p.Name))
}

// appendDifferences appends where each committed catalog of differ first
// differs from what its template renders.
func appendDifferences(out []Difference, differ []*Expanded) ([]Difference, error) {
	for _, r := range differ {
		if !r.Catalog.exists {
			continue
		}
		d, err := r.difference()
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}
