package author

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/internal/suggest"
)

// unknownName refuses a name that is none of the existing ones: near
// names the ones it is likely a slip of (nil to find them with
// suggest.Near).
func unknownName(kind, name string, near, existing []string, format string, args ...any) *Refusal {
	e := suggest.NewUnknown(kind, name, near, existing, fmt.Sprintf(format, args...))
	return &Refusal{Msg: e.Error(), Err: e}
}

// Operators lists the operator directories (those with a ci.yaml),
// sorted: the names "did you mean" chooses from and completion offers.
func (r *Repo) Operators() []string {
	entries, _ := os.ReadDir(r.path("operators"))
	var names []string
	for _, e := range entries {
		if _, err := os.Stat(r.path(path.Join("operators", e.Name(), "ci.yaml"))); e.IsDir() && err == nil {
			names = append(names, e.Name())
		}
	}
	return names
}

// Versions lists an operator's bundle directories (operators/<pkg>/<v>),
// sorted: every directory but catalog-templates.
func (r *Repo) Versions(pkg string) []string {
	entries, _ := os.ReadDir(r.path(path.Join("operators", pkg)))
	var names []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "catalog-templates" && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// templateNames reads the names the operator's templates hold (see
// template.ReadNames), each once: channels and bundles sorted, images in
// the templates' order. Templates that do not parse are left out
// (editing them says why).
func (p *Package) templateNames() (channels, bundles, images []string) {
	for _, t := range p.Templates {
		if t.Data == nil {
			continue
		}
		if n, err := template.ReadNames(t.Kind(), t.Data); err == nil {
			channels, bundles = append(channels, n.Channels...), append(bundles, n.Bundles...)
			for _, img := range n.Images {
				if !slices.Contains(images, img) {
					images = append(images, img)
				}
			}
		}
	}
	slices.Sort(channels)
	slices.Sort(bundles)
	return slices.Compact(channels), slices.Compact(bundles), images
}

// templateChannels lists the channels of the package's basic templates,
// each once, sorted.
func (p *Package) templateChannels() []string {
	channels, _, _ := p.templateNames()
	return channels
}

// Channels lists the channels of the operator's templates, each once:
// those of its basic templates, sorted, and the streams (Candidate, Fast,
// Stable) when it has a semver template.
func (p *Package) Channels() []string {
	out := p.templateChannels()
	if slices.ContainsFunc(p.Templates, func(t *Template) bool { return t.Kind() == template.Semver }) {
		out = append(out, semverStreams...)
	}
	return out
}

// TemplateImages lists the images the operator's templates name, each
// once, in the templates' order; and the names of the bundles their
// channel entries list, sorted.
func (p *Package) TemplateImages() (images, bundles []string) {
	_, bundles, images = p.templateNames()
	return images, bundles
}

// bundleDirHint is ": did you mean operators/<pkg>/<version>?" for a
// bundle directory operators/<pkg>/<version> that is not there, naming
// the operators or versions it is likely a slip of, or "".
func (r *Repo) bundleDirHint(given string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(given)), "/")
	if len(parts) != 3 || parts[0] != "operators" {
		return ""
	}
	versions := r.Versions(parts[1])
	near := suggest.Versioned(parts[2], versions, func(v string) (semver.Version, bool) {
		parsed, err := semver.ParseTolerant(v)
		return parsed, err == nil
	})
	for i, v := range near {
		near[i] = path.Join(parts[0], parts[1], v)
	}
	if len(versions) == 0 {
		for _, op := range suggest.Near(parts[1], r.Operators()) {
			near = append(near, path.Join(parts[0], op, parts[2]))
		}
	}
	if len(near) == 0 {
		return ""
	}
	return fmt.Sprintf(": did you mean %s?", suggest.Or(near))
}

// skipsNotes notes each skipped bundle that no catalog holds and whose
// name is a near miss of one that it does: skipping a bundle that is not
// there is allowed (one removed long ago), so it is written as given.
func (p *Package) skipsNotes(skips []string) []string {
	var notes []string
	names := p.bundleNames()
	for _, s := range skips {
		if !slices.Contains(names, s) {
			if near := suggest.Near(s, names); len(near) > 0 {
				notes = append(notes, fmt.Sprintf("skips names %s, which no catalog of %s holds: did you mean %s? (written as given)", s, p.Dir, suggest.Or(near)))
			}
		}
	}
	return notes
}
