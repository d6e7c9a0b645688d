package catalogrepo

import (
	"slices"

	"github.com/fbcat/opm/alpha/template"
)

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

// TemplateChannels lists the channels of the package's basic templates,
// each once, sorted.
func (p *Package) TemplateChannels() []string {
	channels, _, _ := p.templateNames()
	return channels
}

// Channels lists the channels of the operator's templates, each once:
// those of its basic templates, sorted, and the streams (Candidate, Fast,
// Stable) when it has a semver template.
func (p *Package) Channels() []string {
	out := p.TemplateChannels()
	if slices.ContainsFunc(p.Templates, func(t *Template) bool { return t.Kind() == template.Semver }) {
		out = append(out, template.SemverStreams...)
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
