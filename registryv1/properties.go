// The bundle's properties: those of the metadata files and the CSV, and
// the final list its olm.bundle blob carries.

package registryv1

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// deriveProperties appends, after the properties file's entries, the
// olm.package property from the annotations and CSV, the entries of the
// CSV's olm.properties annotation, and one olm.gvk per provided API; then
// drops exact duplicates.
func (b *Bundle) deriveProperties() error {
	var derived []declcfg.Property
	if b.Package != "" {
		derived = append(derived, packageProperty(b.Package, b.Version, b.Release))
	}
	if ann := b.CSV.At("metadata", "annotations").StringAt("olm.properties"); ann != "" {
		var props []struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal([]byte(ann), &props) == nil {
			for _, p := range props {
				derived = append(derived, declcfg.Property{Type: p.Type, Value: p.Value})
			}
		}
	}
	provided, err := b.providedAPIs()
	if err != nil {
		return err
	}
	for _, k := range provided {
		derived = append(derived, gvkProperty(declcfg.PropertyGVK, k))
	}
	b.properties = dedupe(append(b.properties, dedupe(derived)...))
	return nil
}

// dedupe returns, in a new slice, the properties that do not equal an
// earlier one (same type, same value bytes).
func dedupe(props []declcfg.Property) []declcfg.Property {
	seen := map[string]bool{}
	out := props[:0:0]
	for _, p := range props {
		key := p.Type + "\x00" + string(p.Value)
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return out
}

// mustJSON marshals a property value that cannot fail to marshal.
func mustJSON(v any) json.RawMessage {
	data, err := value.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// packageProperty is an olm.package property.
func packageProperty(pkg, version, release string) declcfg.Property {
	return declcfg.Property{Type: declcfg.PropertyPackage, Value: mustJSON(declcfg.PackageProperty{PackageName: pkg, Version: version, Release: release})}
}

// gvkProperty is an olm.gvk or olm.gvk.required property (typ) for k.
func gvkProperty(typ string, k apiKey) declcfg.Property {
	return declcfg.Property{Type: typ, Value: mustJSON(declcfg.GVKProperty{Group: k.group, Kind: k.kind, Version: k.version})}
}

// propertySet gathers a bundle's properties by kind before they become
// the final list.
type propertySet struct {
	pkg         *declcfg.Property // the last olm.package given
	gvks        []apiKey          // provided APIs, without duplicates
	required    []apiKey          // required APIs, without duplicates
	pkgRequired []declcfg.Property
	others      []declcfg.Property // every other type, as given
}

// addKey adds k to keys unless it is there already; the plural does not
// count.
func addKey(keys []apiKey, k apiKey) []apiKey {
	k.plural = ""
	if slices.Contains(keys, k) {
		return keys
	}
	return append(keys, k)
}

// fbcProperties builds the final property list: one olm.package (the last
// one given wins), the union of provided GVKs, the union of required GVKs
// (from the dependencies file and the CSV), olm.package.required for
// package dependencies, every other property and dependency as given, and
// one olm.bundle.object per manifest object; sorted by type, then by value.
func (b *Bundle) fbcProperties() ([]declcfg.Property, error) {
	var set propertySet
	if err := b.addProperties(&set); err != nil {
		return nil, err
	}
	if err := b.addDependencies(&set); err != nil {
		return nil, err
	}
	provided, err := b.providedAPIs()
	if err != nil {
		return nil, err
	}
	for _, k := range provided {
		set.gvks = addKey(set.gvks, k)
	}
	requiredAPIs, err := b.requiredAPIs()
	if err != nil {
		return nil, err
	}
	for _, k := range requiredAPIs {
		set.required = addKey(set.required, k)
	}
	return b.propertyList(&set), nil
}

// addProperties reads the properties of the properties file and the
// CSV's olm.properties annotation.
func (b *Bundle) addProperties(set *propertySet) error {
	for i, p := range b.properties {
		switch p.Type {
		case declcfg.PropertyGVK:
			v, err := declcfg.ParsePropertyValue[declcfg.GVKProperty](p.Value)
			if err != nil {
				return b.propertyError(i, "olm.gvk", err)
			}
			set.gvks = addKey(set.gvks, apiKey{group: v.Group, version: v.Version, kind: v.Kind})
		case declcfg.PropertyPackage:
			v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value)
			if err != nil {
				return b.propertyError(i, "olm.package", err)
			}
			prop := packageProperty(v.PackageName, v.Version, v.Release)
			set.pkg = &prop
		default:
			set.others = append(set.others, p)
		}
	}
	return nil
}

// addDependencies reads the dependencies file: GVKs and packages become
// requirements.
func (b *Bundle) addDependencies(set *propertySet) error {
	for i, p := range b.dependencies.list {
		switch p.Type {
		case declcfg.PropertyGVK:
			v, err := declcfg.ParsePropertyValue[declcfg.GVKProperty](p.Value)
			if err != nil {
				return b.dependencies.entryError(i, fmt.Errorf("dependency[%d] (olm.gvk): %w", i, err))
			}
			set.required = addKey(set.required, apiKey{group: v.Group, version: v.Version, kind: v.Kind})
		case declcfg.PropertyPackage:
			v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value)
			if err != nil {
				return b.dependencies.entryError(i, fmt.Errorf("dependency[%d] (olm.package): %w", i, err))
			}
			set.pkgRequired = append(set.pkgRequired, declcfg.Property{Type: declcfg.PropertyPackageRequired, Value: mustJSON(declcfg.PackageRequiredProperty{PackageName: v.PackageName, VersionRange: v.Version})})
		default:
			set.others = append(set.others, p)
		}
	}
	return nil
}

// propertyList turns the set into the final list, with the bundle's
// objects and, if none was given, its own olm.package.
func (b *Bundle) propertyList(set *propertySet) []declcfg.Property {
	var props []declcfg.Property
	for _, obj := range b.Objects {
		props = append(props, declcfg.Property{Type: declcfg.PropertyBundleObject, Value: mustJSON(map[string]string{"data": base64.StdEncoding.EncodeToString(obj)})})
	}
	if set.pkg != nil {
		props = append(props, *set.pkg)
	} else {
		props = append(props, packageProperty(b.Package, b.Version, b.Release))
	}
	for _, k := range set.gvks {
		props = append(props, gvkProperty(declcfg.PropertyGVK, k))
	}
	for _, k := range set.required {
		props = append(props, gvkProperty(declcfg.PropertyGVKRequired, k))
	}
	props = append(props, set.pkgRequired...)
	props = append(props, set.others...)
	slices.SortFunc(props, func(x, y declcfg.Property) int {
		return cmp.Or(cmp.Compare(x.Type, y.Type), bytes.Compare(x.Value, y.Value))
	})
	return props
}

// propertyError explains a bad property: one from the properties file,
// or one from the CSV's olm.properties annotation.
func (b *Bundle) propertyError(i int, typ string, err error) error {
	n := len(b.fileProperties.list)
	if i < n {
		return b.fileProperties.entryError(i, fmt.Errorf("property[%d] (%s): %w", i, typ, err))
	}
	return &position.Error{File: b.csvFile, Err: fmt.Errorf("olm.properties annotation: property[%d] (%s): %w", i-n, typ, err)}
}

// entryError is the problem err with the list's entry i, at its line.
func (l *propertyList) entryError(i int, err error) error {
	return &position.Error{File: l.file, Line: l.lines[i], Err: err}
}
