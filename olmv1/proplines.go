// Where a bundle directory's properties are written: the entries of
// metadata/dependencies.yaml and metadata/properties.yaml, so that a
// Reason about a dependency points at the entry that declares it.

package olmv1

import (
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// entry is one written property: its type as a catalog carries it, what
// tells it from others of its type, and where it is.
type entry struct {
	typ, ident, file string
	line             int
	used             bool
}

// locateProperties sets the file and line of each of the bundle's
// properties that an entry of its dependencies or properties file
// declares: the entry of the same type and identity, else the first
// unused entry of the same type.
func (b *Bundle) locateProperties(f *registryv1.Files, dir, deps, props string) {
	var entries []entry
	if deps != "" {
		entries = append(entries, readEntries(f, dir, deps, "dependencies")...)
	}
	if props != "" {
		entries = append(entries, readEntries(f, dir, props, "properties")...)
	}
	if len(entries) == 0 {
		return
	}
	b.pos.propFiles = make([]string, len(b.properties))
	for i, p := range b.properties {
		e := matchEntry(entries, p.Type, propertyIdent(p.Type, p.Value))
		if e == nil {
			continue
		}
		e.used = true
		b.pos.propFiles[i], b.properties[i].Line = e.file, e.line
	}
}

// matchEntry finds the unused entry of type typ with identity ident, else
// the first unused entry of that type.
func matchEntry(entries []entry, typ, ident string) *entry {
	var first *entry
	for i := range entries {
		e := &entries[i]
		if e.used || e.typ != typ {
			continue
		}
		if e.ident == ident {
			return e
		}
		if first == nil {
			first = e
		}
	}
	return first
}

// readEntries reads the list under key of a metadata file. The olm.gvk
// and olm.package entries of a dependencies file become olm.gvk.required
// and olm.package.required properties.
func readEntries(f *registryv1.Files, dir, file, key string) []entry {
	m := f.MetadataFile(file)
	if m == nil || m.Object == nil {
		return nil
	}
	list, ok := m.Object.Get(key)
	if !ok || list.Kind != value.Array {
		return nil
	}
	var out []entry
	for i := range list.Items {
		item := &list.Items[i]
		t := item.StringAt("type")
		if key == "dependencies" {
			switch t {
			case declcfg.PropertyGVK:
				t = declcfg.PropertyGVKRequired
			case declcfg.PropertyPackage:
				t = declcfg.PropertyPackageRequired
			}
		}
		v, _ := item.Get("value")
		out = append(out, entry{typ: t, ident: valueIdent(t, v), file: joinPath(dir, file), line: int(item.Line)})
	}
	return out
}

// valueIdent tells a written property from others of its type.
func valueIdent(typ string, v *value.Value) string {
	if v == nil {
		return ""
	}
	switch typ {
	case declcfg.PropertyGVKRequired, declcfg.PropertyGVK:
		return v.StringAt("group") + "/" + v.StringAt("version") + "/" + v.StringAt("kind")
	case declcfg.PropertyPackageRequired, declcfg.PropertyPackage:
		return v.StringAt("packageName")
	}
	return ""
}

// propertyIdent is valueIdent for a property as a catalog carries it.
func propertyIdent(typ string, raw []byte) string {
	switch typ {
	case declcfg.PropertyGVKRequired, declcfg.PropertyGVK:
		if g, err := declcfg.ParsePropertyValue[declcfg.GVKProperty](raw); err == nil {
			return g.Group + "/" + g.Version + "/" + g.Kind
		}
	case declcfg.PropertyPackageRequired:
		if p, err := declcfg.ParsePropertyValue[declcfg.PackageRequiredProperty](raw); err == nil {
			return p.PackageName
		}
	case declcfg.PropertyPackage:
		if p, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](raw); err == nil {
			return p.PackageName
		}
	}
	return ""
}
