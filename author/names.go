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
func unknownName(kind, name string, near, existing []string, format string, args ...any) error {
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

// Channels lists the channels of the operator's templates, each once,
// sorted: those of its basic templates, and the streams (Candidate, Fast,
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
// channel entries list, sorted. Templates that do not parse are left out.
func (p *Package) TemplateImages() (images, bundles []string) {
	for _, t := range p.Templates {
		if t.Data == nil {
			continue
		}
		if t.Kind() == template.Semver {
			if d, err := openSemver(t); err == nil {
				for _, s := range semverStreams {
					images = append(images, d.images(s)...)
				}
			}
		} else if d, err := openBasic(t); err == nil {
			images = append(images, d.images()...)
			for _, ch := range d.objects("olm.channel") {
				if list := channelEntries(ch); list != nil {
					for _, e := range list.Content {
						bundles = append(bundles, str(e, "name"))
					}
				}
			}
		}
	}
	slices.Sort(bundles)
	bundles = slices.DeleteFunc(slices.Compact(bundles), func(b string) bool { return b == "" })
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
	near := suggest.Versioned(parts[2], r.Versions(parts[1]), func(v string) (semver.Version, bool) {
		parsed, err := semver.ParseTolerant(v)
		return parsed, err == nil
	})
	for i, v := range near {
		near[i] = path.Join(parts[0], parts[1], v)
	}
	if len(r.Versions(parts[1])) == 0 {
		for _, op := range suggest.Near(parts[1], r.Operators()) {
			near = append(near, path.Join(parts[0], op, parts[2]))
		}
	}
	if len(near) == 0 {
		return ""
	}
	return fmt.Sprintf(": did you mean %s?", suggest.Or(near))
}
