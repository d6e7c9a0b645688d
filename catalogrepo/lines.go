package catalogrepo

import (
	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/catalogrepo/yamledit"
)

// TemplateLines is where a template names what the catalogs rendered
// from it hold, for readers (lint) that point at the line a maintainer
// edits rather than at a rendered catalog's: the image line of each
// bundle (a basic template's olm.bundle entry, a semver template's
// bundles entry), and, in a basic template, the package's name line, each
// channel's name line and each channel entry's line. A nil
// *TemplateLines knows no line.
type TemplateLines struct {
	pkg      int
	images   map[string]int
	channels map[string]int
	entries  map[[2]string]int
}

// Lines reads where the template names its bundles and channel entries;
// nil when it does not exist or does not parse (expanding it says why).
func (t *Template) Lines() *TemplateLines {
	if t == nil || t.Data == nil {
		return nil
	}
	l := &TemplateLines{images: map[string]int{}, channels: map[string]int{}, entries: map[[2]string]int{}}
	if t.Type == repoconfig.TypeSemver {
		d, err := OpenSemver(t)
		if err != nil {
			return nil
		}
		for _, s := range template.SemverStreams {
			l.semverImages(d.Bundles(s))
		}
		return l
	}
	d, err := OpenBasic(t)
	if err != nil {
		return nil
	}
	if p := d.Package(); p != nil {
		if k, _ := yamledit.Lookup(p, "name"); k != nil {
			l.pkg = k.Line
		}
	}
	for _, b := range d.Objects("olm.bundle") {
		if k, v := yamledit.Lookup(b, "image"); v != nil && v.Kind == yaml.ScalarNode {
			l.setImage(v.Value, k.Line)
		}
	}
	for _, ch := range d.Objects("olm.channel") {
		k, v := yamledit.Lookup(ch, "name")
		if v == nil || v.Kind != yaml.ScalarNode {
			continue
		}
		l.channels[v.Value] = cmpLine(l.channels[v.Value], k.Line)
		if list := ChannelEntries(ch); list != nil && list.Kind == yaml.SequenceNode {
			for _, e := range list.Content {
				if name := yamledit.String(e, "name"); name != "" {
					key := [2]string{v.Value, name}
					l.entries[key] = cmpLine(l.entries[key], e.Line)
				}
			}
		}
	}
	return l
}

// semverImages records the image lines of a semver stream's bundles.
func (l *TemplateLines) semverImages(list *yaml.Node) {
	if list == nil || list.Kind != yaml.SequenceNode {
		return
	}
	for _, b := range list.Content {
		if k, v := yamledit.LookupFold(b, "image"); v != nil && v.Kind == yaml.ScalarNode {
			l.setImage(v.Value, k.Line)
		}
	}
}

// setImage records the line of an image, the first when it is named
// twice.
func (l *TemplateLines) setImage(image string, line int) {
	if image != "" {
		l.images[image] = cmpLine(l.images[image], line)
	}
}

// cmpLine is the earlier of two lines, 0 being none.
func cmpLine(a, b int) int {
	if a == 0 || b < a {
		return b
	}
	return a
}

// Image is the line that names a bundle image, 0 if none does.
func (l *TemplateLines) Image(image string) int {
	if l == nil {
		return 0
	}
	return l.images[image]
}

// Package is the line of the package's name (basic templates), 0 if the
// template has no olm.package entry.
func (l *TemplateLines) Package() int {
	if l == nil {
		return 0
	}
	return l.pkg
}

// Channel is the line of a channel's name (basic templates), 0 if the
// template has no such channel.
func (l *TemplateLines) Channel(name string) int {
	if l == nil {
		return 0
	}
	return l.channels[name]
}

// Entry is the line of a channel's entry for a bundle (basic templates),
// 0 if the template has no such entry.
func (l *TemplateLines) Entry(channel, bundle string) int {
	if l == nil {
		return 0
	}
	return l.entries[[2]string{channel, bundle}]
}
