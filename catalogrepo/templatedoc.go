package catalogrepo

import (
	"slices"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo/yamledit"
)

// BasicDoc is a basic template read as a YAML document whose nodes know
// their lines, opened with yamledit so that the catalog verbs can edit
// it in place.
type BasicDoc struct {
	Template *Template
	File     *yamledit.File
	Entries  *yaml.Node // the value of "entries"
}

// SemverDoc is a semver template read as BasicDoc is.
type SemverDoc struct {
	Template *Template
	File     *yamledit.File
	Root     *yaml.Node
}

// OpenBasic reads a basic template's text (t.Data) as a document; a text
// that is not a basic template's is refused at its line.
func OpenBasic(t *Template) (*BasicDoc, error) {
	f, err := yamledit.Parse(t.Path, t.Data)
	if err != nil {
		return nil, Refuse("%w", err)
	}
	root := f.Root()
	_, entries := yamledit.Lookup(root, "entries")
	if root.Kind != yaml.MappingNode || entries == nil {
		return nil, Refuse("%s: a basic template is a mapping with schema: olm.template.basic and entries", t.Path)
	}
	if entries.Kind != yaml.SequenceNode && entries.Tag != "!!null" {
		return nil, Refuse("%s:%d: entries must be a list", t.Path, entries.Line)
	}
	return &BasicDoc{Template: t, File: f, Entries: entries}, nil
}

// OpenSemver reads a semver template's text (t.Data) as a document.
func OpenSemver(t *Template) (*SemverDoc, error) {
	f, err := yamledit.Parse(t.Path, t.Data)
	if err != nil {
		return nil, Refuse("%w", err)
	}
	if f.Root().Kind != yaml.MappingNode {
		return nil, Refuse("%s: a semver template is a mapping with schema: olm.semver", t.Path)
	}
	return &SemverDoc{Template: t, File: f, Root: f.Root()}, nil
}

// Objects lists the entries of the given schema.
func (d *BasicDoc) Objects(schema string) []*yaml.Node {
	var out []*yaml.Node
	if d.Entries.Kind != yaml.SequenceNode {
		return nil
	}
	for _, e := range d.Entries.Content {
		if e.Kind == yaml.MappingNode && yamledit.String(e, "schema") == schema {
			out = append(out, e)
		}
	}
	return out
}

// Package returns the olm.package entry, or nil.
func (d *BasicDoc) Package() *yaml.Node {
	if ps := d.Objects("olm.package"); len(ps) > 0 {
		return ps[0]
	}
	return nil
}

// Channel returns the olm.channel entry named name, or nil.
func (d *BasicDoc) Channel(name string) *yaml.Node {
	for _, c := range d.Objects("olm.channel") {
		if yamledit.String(c, "name") == name {
			return c
		}
	}
	return nil
}

// Images lists the images of the olm.bundle entries.
func (d *BasicDoc) Images() []string {
	var out []string
	for _, b := range d.Objects("olm.bundle") {
		out = append(out, yamledit.String(b, "image"))
	}
	return out
}

// Holds reports whether the template lists the bundle image.
func (d *BasicDoc) Holds(image string) bool { return slices.Contains(d.Images(), image) }

// ChannelEntries returns the entries list of a channel entry, or nil.
func ChannelEntries(ch *yaml.Node) *yaml.Node {
	_, v := yamledit.Lookup(ch, "entries")
	return v
}

// EntryNamed returns the channel entry of bundle name, or nil.
func EntryNamed(ch *yaml.Node, name string) *yaml.Node {
	list := ChannelEntries(ch)
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	for _, e := range list.Content {
		if yamledit.String(e, "name") == name {
			return e
		}
	}
	return nil
}

// Key spells a semver template key the way the template spells its keys:
// capitalised ("Stable", "Bundles", "Image", as the community templates
// are) when its schema key is, else lower-case.
func (d *SemverDoc) Key(name string) string {
	for i := 0; i+1 < len(d.Root.Content); i += 2 {
		if k := d.Root.Content[i].Value; strings.EqualFold(k, "schema") {
			if k != "" && unicode.IsUpper(rune(k[0])) {
				return name
			}
			return strings.ToLower(name)
		}
	}
	return name
}

// Bundles returns the bundles list of a stream, or nil.
func (d *SemverDoc) Bundles(stream string) *yaml.Node {
	_, s := yamledit.LookupFold(d.Root, stream)
	if s == nil || s.Kind != yaml.MappingNode {
		return nil
	}
	_, list := yamledit.LookupFold(s, "bundles")
	return list
}

// Images lists the images of a stream.
func (d *SemverDoc) Images(stream string) []string {
	list := d.Bundles(stream)
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	var out []string
	for _, b := range list.Content {
		if _, v := yamledit.LookupFold(b, "image"); v != nil {
			out = append(out, v.Value)
		}
	}
	return out
}

// Holds reports whether any stream lists the image.
func (d *SemverDoc) Holds(image string) bool {
	for _, s := range template.SemverStreams {
		if slices.Contains(d.Images(s), image) {
			return true
		}
	}
	return false
}
