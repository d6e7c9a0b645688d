package author

import (
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/yamledit"
)

// holders lists the templates that name an image, each opened for
// editing (basicDoc or semverDoc).
func (p *Package) holders(image string) ([]any, error) {
	var out []any
	for _, t := range p.Templates {
		if t.Data == nil {
			continue
		}
		if t.Kind() == template.Semver {
			d, err := openSemver(t)
			if err != nil {
				return nil, err
			}
			if d.Holds(image) {
				out = append(out, d)
			}
			continue
		}
		d, err := openBasic(t)
		if err != nil {
			return nil, err
		}
		if d.Holds(image) {
			out = append(out, d)
		}
	}
	return out, nil
}

// openTemplates opens the package's basic templates for editing and names
// its semver templates (which cannot hold what some verbs write).
func (p *Package) openTemplates() (basics []*basicDoc, semverOnes []string, err error) {
	for _, t := range p.Templates {
		if t.Data == nil {
			continue
		}
		if t.Kind() == template.Semver {
			semverOnes = append(semverOnes, t.TemplateFile)
			continue
		}
		d, err := openBasic(t)
		if err != nil {
			return nil, nil, err
		}
		basics = append(basics, d)
	}
	return basics, semverOnes, nil
}

// channelHeads lists the names of a template channel's entries that no
// entry replaces or skips.
func channelHeads(ch *yaml.Node) []string {
	list := catalogrepo.ChannelEntries(ch)
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	incoming := map[string]bool{}
	for _, e := range list.Content {
		incoming[yamledit.String(e, "replaces")] = true
		for _, s := range yamledit.Strings(e, "skips") {
			incoming[s] = true
		}
	}
	var heads []string
	for _, e := range list.Content {
		if n := yamledit.String(e, "name"); n != "" && !incoming[n] && !slices.Contains(heads, n) {
			heads = append(heads, n)
		}
	}
	slices.Sort(heads)
	return heads
}
