package author

import (
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo/yamledit"
)

// basicDoc is a basic template opened for editing.
type basicDoc struct {
	t       *Template
	f       *yamledit.File
	entries *yaml.Node // the value of "entries"
}

// semverDoc is a semver template opened for editing.
type semverDoc struct {
	t    *Template
	f    *yamledit.File
	root *yaml.Node
}

// The streams of a semver template, in increasing stability, spelled as
// the community templates and release-config.yaml spell them.
var semverStreams = template.SemverStreams

func openBasic(t *Template) (*basicDoc, error) {
	f, err := yamledit.Parse(t.Path, t.Data)
	if err != nil {
		return nil, refuse("%w", err)
	}
	root := f.Root()
	_, entries := yamledit.Lookup(root, "entries")
	if root.Kind != yaml.MappingNode || entries == nil {
		return nil, refuse("%s: a basic template is a mapping with schema: olm.template.basic and entries", t.Path)
	}
	if entries.Kind != yaml.SequenceNode && entries.Tag != "!!null" {
		return nil, refuse("%s:%d: entries must be a list", t.Path, entries.Line)
	}
	return &basicDoc{t: t, f: f, entries: entries}, nil
}

func openSemver(t *Template) (*semverDoc, error) {
	f, err := yamledit.Parse(t.Path, t.Data)
	if err != nil {
		return nil, refuse("%w", err)
	}
	if f.Root().Kind != yaml.MappingNode {
		return nil, refuse("%s: a semver template is a mapping with schema: olm.semver", t.Path)
	}
	return &semverDoc{t: t, f: f, root: f.Root()}, nil
}

// str is the string value of key in mapping m, "" if none.
func str(m *yaml.Node, key string) string {
	if _, v := yamledit.Lookup(m, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// objects lists the entries of the given schema.
func (d *basicDoc) objects(schema string) []*yaml.Node {
	var out []*yaml.Node
	if d.entries.Kind != yaml.SequenceNode {
		return nil
	}
	for _, e := range d.entries.Content {
		if e.Kind == yaml.MappingNode && str(e, "schema") == schema {
			out = append(out, e)
		}
	}
	return out
}

// pkg returns the olm.package entry, or nil.
func (d *basicDoc) pkg() *yaml.Node {
	if ps := d.objects("olm.package"); len(ps) > 0 {
		return ps[0]
	}
	return nil
}

// channel returns the olm.channel entry named name, or nil.
func (d *basicDoc) channel(name string) *yaml.Node {
	for _, c := range d.objects("olm.channel") {
		if str(c, "name") == name {
			return c
		}
	}
	return nil
}

// images lists the images of the olm.bundle entries.
func (d *basicDoc) images() []string {
	var out []string
	for _, b := range d.objects("olm.bundle") {
		out = append(out, str(b, "image"))
	}
	return out
}

// holds reports whether the template lists the bundle image.
func (d *basicDoc) holds(image string) bool {
	for _, img := range d.images() {
		if img == image {
			return true
		}
	}
	return false
}

// channelEntries returns the entries list of a channel entry, or nil.
func channelEntries(ch *yaml.Node) *yaml.Node {
	_, v := yamledit.Lookup(ch, "entries")
	return v
}

// entryNamed returns the channel entry of bundle name, or nil.
func entryNamed(ch *yaml.Node, name string) *yaml.Node {
	list := channelEntries(ch)
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	for _, e := range list.Content {
		if str(e, "name") == name {
			return e
		}
	}
	return nil
}

// entryMap is a new channel entry, with only the fields that are set,
// in the order opm writes them.
func entryMap(name, replaces string, skips []string, skipRange string) yamledit.Map {
	m := yamledit.Map{{Key: "name", Value: name}}
	if replaces != "" {
		m = append(m, yamledit.KV{Key: "replaces", Value: replaces})
	}
	if len(skips) > 0 {
		m = append(m, yamledit.KV{Key: "skips", Value: toAny(skips)})
	}
	if skipRange != "" {
		m = append(m, yamledit.KV{Key: "skipRange", Value: skipRange})
	}
	return m
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// key spells a semver template key the way the template spells its keys:
// capitalised ("Stable", "Bundles", "Image", as the community templates
// are) when its schema key is, else lower-case.
func (d *semverDoc) key(name string) string {
	for i := 0; i+1 < len(d.root.Content); i += 2 {
		if k := d.root.Content[i].Value; strings.EqualFold(k, "schema") {
			if k != "" && unicode.IsUpper(rune(k[0])) {
				return name
			}
			return strings.ToLower(name)
		}
	}
	return name
}

// bundles returns the bundles list of a stream, or nil.
func (d *semverDoc) bundles(stream string) *yaml.Node {
	_, s := yamledit.LookupFold(d.root, stream)
	if s == nil || s.Kind != yaml.MappingNode {
		return nil
	}
	_, list := yamledit.LookupFold(s, "bundles")
	return list
}

// images lists the images of a stream.
func (d *semverDoc) images(stream string) []string {
	list := d.bundles(stream)
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

// holds reports whether any stream lists the image.
func (d *semverDoc) holds(image string) bool {
	for _, s := range semverStreams {
		for _, img := range d.images(s) {
			if img == image {
				return true
			}
		}
	}
	return false
}

// addImage lists an image under a stream, making the stream or its
// bundles list when missing.
func (d *semverDoc) addImage(stream, image string) error {
	entry := yamledit.Map{{Key: d.key("Image"), Value: image}}
	_, s := yamledit.LookupFold(d.root, stream)
	if s == nil || s.Tag == "!!null" {
		return d.f.Set(d.root, d.key(stream), yamledit.Map{{Key: d.key("Bundles"), Value: []any{entry}}})
	}
	if s.Kind != yaml.MappingNode {
		return refuse("%s:%d: %s must be a mapping with a bundles list", d.t.Path, s.Line, stream)
	}
	_, list := yamledit.LookupFold(s, "bundles")
	if list == nil {
		return d.f.Set(s, d.key("Bundles"), []any{entry})
	}
	return d.f.Append(list, entry)
}

// removeImage removes an image from every stream that lists it.
func (d *semverDoc) removeImage(image string) error {
	for _, s := range semverStreams {
		list := d.bundles(s)
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		for _, b := range list.Content {
			if _, v := yamledit.LookupFold(b, "image"); v != nil && v.Value == image {
				if err := d.f.Remove(list, b); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
