// Drift: whether a committed catalog is what its template renders, text
// and all, and where it first is not.

package author

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/fbcat/opm/author/stage"
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
	d.Line, d.What = firstDifference(bytes.ReplaceAll(old, []byte("\r\n"), []byte("\n")), rendered.Join(), r.textOnly)
	return d, nil
}

// firstDifference finds the first line of old that is not new's line of
// the same number, and says what is there; sameObjects says the two texts
// hold the same objects.
func firstDifference(old, new []byte, sameObjects bool) (int, string) {
	a, b := lines(old), lines(new)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case i == len(a) && i == len(b):
		return max(i, 1), "the same text in another encoding" // not met: the digests differ
	case i == len(a):
		return i + 1, fmt.Sprintf("the catalog ends here, where the template renders %s", quoteLine(b[i]))
	case i == len(b):
		return i + 1, fmt.Sprintf("%s after the end of what the template renders", describeLine(a[i]))
	}
	return i + 1, differentLine(a[i], b[i], sameObjects)
}

// differentLine says what a committed line holds that the rendered one
// does not.
func differentLine(old, new string, sameObjects bool) string {
	trimmed := strings.TrimSpace(old)
	switch {
	case strings.HasPrefix(trimmed, "#"):
		return fmt.Sprintf("a comment the template does not render (%s): rendering drops it, so keep comments in the template", quoteLine(trimmed))
	case trimmed == "":
		return "a blank line the template does not render"
	case commentAfter(old, new) != "":
		return fmt.Sprintf("a comment the template does not render (%s): rendering drops it, so keep comments in the template", quoteLine(commentAfter(old, new)))
	case strings.Join(strings.Fields(old), " ") == strings.Join(strings.Fields(new), " "):
		return "white space the template does not render"
	case sameObjects:
		return fmt.Sprintf("the objects the template renders, written differently (reordered or reformatted): the template renders %s here", quoteLine(new))
	}
	return fmt.Sprintf("the template renders %s here", quoteLine(new))
}

// commentAfter is the comment old adds at the end of new ("# ..."), or "".
func commentAfter(old, new string) string {
	rest, ok := strings.CutPrefix(old, new)
	if !ok {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "#") && (len(rest) < len(old)-len(new)) {
		return rest
	}
	return ""
}

// describeLine names a line that should not be there.
func describeLine(l string) string {
	trimmed := strings.TrimSpace(l)
	switch {
	case trimmed == "":
		return "a blank line"
	case strings.HasPrefix(trimmed, "#"):
		return fmt.Sprintf("a comment (%s)", quoteLine(trimmed))
	}
	return quoteLine(l)
}

// quoteLine quotes a line for a message, cut to 60 characters.
func quoteLine(l string) string {
	if r := []rune(l); len(r) > 60 {
		l = string(r[:57]) + "..."
	}
	return fmt.Sprintf("%q", l)
}

// lines splits a text into its lines, without their line ends.
func lines(data []byte) []string {
	s := string(data)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
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
	return refuse("%w", &NeedError{Need: NeedOverwrite, Package: p.Name,
		Problem: "refusing to overwrite catalogs that differ from what their templates render (edited by hand?):\n  " + strings.Join(drifted, "\n  ")})
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
