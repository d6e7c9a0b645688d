package author

import (
	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/yamledit"
)

// basicDoc is a basic template opened for editing (read as
// catalogrepo.BasicDoc).
type basicDoc struct{ *catalogrepo.BasicDoc }

// semverDoc is a semver template opened for editing.
type semverDoc struct{ *catalogrepo.SemverDoc }

func openBasic(t *catalogrepo.Template) (*basicDoc, error) {
	d, err := catalogrepo.OpenBasic(t)
	if err != nil {
		return nil, err
	}
	return &basicDoc{d}, nil
}

func openSemver(t *catalogrepo.Template) (*semverDoc, error) {
	d, err := catalogrepo.OpenSemver(t)
	if err != nil {
		return nil, err
	}
	return &semverDoc{d}, nil
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

// addImage lists an image under a stream, making the stream or its
// bundles list when missing.
func (d *semverDoc) addImage(stream, image string) error {
	entry := yamledit.Map{{Key: d.Key("Image"), Value: image}}
	_, s := yamledit.LookupFold(d.Root, stream)
	if s == nil || s.Tag == "!!null" {
		return d.File.Set(d.Root, d.Key(stream), yamledit.Map{{Key: d.Key("Bundles"), Value: []any{entry}}})
	}
	if s.Kind != yaml.MappingNode {
		return catalogrepo.Refuse("%s:%d: %s must be a mapping with a bundles list", d.Template.Path, s.Line, stream)
	}
	_, list := yamledit.LookupFold(s, "bundles")
	if list == nil {
		return d.File.Set(s, d.Key("Bundles"), []any{entry})
	}
	return d.File.Append(list, entry)
}

// removeImage removes an image from every stream that lists it.
func (d *semverDoc) removeImage(image string) error {
	for _, s := range template.SemverStreams {
		list := d.Bundles(s)
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		for _, b := range list.Content {
			if _, v := yamledit.LookupFold(b, "image"); v != nil && v.Value == image {
				if err := d.File.Remove(list, b); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// channelMap is a new channel entry holding one entry, its keys in the
// order of the template's first channel (schema, name, package, entries
// when it has none).
func channelMap(d *basicDoc, name, pkg string, entry yamledit.Map) yamledit.Map {
	values := map[string]any{"schema": "olm.channel", "name": name, "package": pkg, "entries": []any{entry}}
	order := []string{"schema", "name", "package", "entries"}
	if chs := d.Objects("olm.channel"); len(chs) > 0 {
		var keys []string
		for i := 0; i+1 < len(chs[0].Content); i += 2 {
			if _, known := values[chs[0].Content[i].Value]; known {
				keys = append(keys, chs[0].Content[i].Value)
			}
		}
		if len(keys) == len(order) {
			order = keys
		}
	}
	m := make(yamledit.Map, 0, len(order))
	for _, k := range order {
		m = append(m, yamledit.KV{Key: k, Value: values[k]})
	}
	return m
}
