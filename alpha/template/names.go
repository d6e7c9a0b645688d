package template

import (
	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
)

// Names are the names a template holds, for listing them (shell
// completion, "did you mean"): read with the fast decoder, no edit tree.
type Names struct {
	Channels []string // a basic template's olm.channel names, in order
	Bundles  []string // the bundles its channels' entries name, in order
	Images   []string // its bundles' images: of olm.bundle entries, or of each semver stream
}

// SemverStreams are the streams of a semver template, in increasing
// stability, as the community's templates spell them.
var SemverStreams = []string{"Candidate", "Fast", "Stable"}

// ReadNames reads the names of a basic or semver template (a
// substitutes template names none). A semver template's keys are matched
// ignoring case, as upstream reads them.
func ReadNames(kind Kind, data []byte) (Names, error) {
	var n Names
	v, err := fbcyaml.Decode(data, 1)
	if err != nil {
		return n, err
	}
	switch kind {
	case Basic:
		entries := v.At("entries")
		if entries == nil {
			return n, nil
		}
		for i := range entries.Items {
			e := &entries.Items[i]
			switch e.StringAt("schema") {
			case "olm.channel":
				n.Channels = appendName(n.Channels, e.StringAt("name"))
				for _, entry := range itemsOf(e.At("entries")) {
					n.Bundles = appendName(n.Bundles, entry.StringAt("name"))
				}
			case "olm.bundle":
				n.Images = appendName(n.Images, e.StringAt("image"))
			}
		}
	case Semver:
		for _, stream := range SemverStreams {
			for _, b := range itemsOf(fold(fold(&v, stream), "bundles")) {
				if img := fold(&b, "image"); img != nil && img.Kind == value.String {
					n.Images = appendName(n.Images, img.Str)
				}
			}
		}
	}
	return n, nil
}

// itemsOf is the items of a list, or none.
func itemsOf(v *value.Value) []value.Value {
	if v == nil || v.Kind != value.Array {
		return nil
	}
	return v.Items
}

// fold is the member of an object whose key is key ignoring case, as
// member finds it, or nil (also when two keys match: the template would
// not render).
func fold(v *value.Value, key string) *value.Value {
	if v == nil || v.Kind != value.Object {
		return nil
	}
	m, _ := member(v, key)
	return m
}

// appendName appends a name that is not empty.
func appendName(names []string, name string) []string {
	if name == "" {
		return names
	}
	return append(names, name)
}
