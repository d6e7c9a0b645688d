package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/csvmeta"
)

// versions maps bundle names to versions, as upstream's graph does: across
// packages, the first bundle of a name counts (later ones are not even
// checked), and a release in the olm.package property plays no part.
func versions(cfg *declcfg.DeclarativeConfig) (map[string]semver.Version, error) {
	out := make(map[string]semver.Version, len(cfg.Bundles))
	for i := range cfg.Bundles {
		b := &cfg.Bundles[i]
		if _, seen := out[b.Name]; seen {
			continue
		}
		v, err := bundleVersion(b)
		if err != nil {
			return nil, err
		}
		out[b.Name] = v
	}
	return out, nil
}

// bundleVersion reads the version of the bundle's single olm.package
// property. Like upstream, it first decodes every property whose type
// upstream knows and refuses the bundle if one does not decode.
func bundleVersion(b *declcfg.Bundle) (semver.Version, error) {
	problem := func(line int, format string, args ...any) error {
		if line == 0 {
			line = b.Pos.Line
		}
		return &declcfg.Error{File: b.Pos.File, Line: line, Schema: declcfg.SchemaBundle, Package: b.Package, Bundle: b.Name, Message: fmt.Sprintf(format, args...)}
	}
	var pkgs []declcfg.PackageProperty
	line := 0 // of the olm.package property
	for i, p := range b.Properties {
		v, err := decodeProperty(p)
		if err != nil {
			return semver.Version{}, problem(p.Line, "cannot read properties[%d] (%s): %v", i, p.Type, err)
		}
		if pkg, ok := v.(*declcfg.PackageProperty); ok {
			pkgs = append(pkgs, *pkg)
			line = p.Line
		}
	}
	if n := len(pkgs); n != 1 {
		found := fmt.Sprintf("%d %q properties", n, declcfg.PropertyPackage)
		if n == 0 {
			found = fmt.Sprintf("no %q property", declcfg.PropertyPackage)
		}
		return semver.Version{}, problem(0, "has %s: exactly 1 is needed, for the bundle's version", found)
	}
	v, err := semver.Parse(pkgs[0].Version)
	if err != nil {
		return semver.Version{}, problem(line, "invalid version %q in its %q property: %v", pkgs[0].Version, declcfg.PropertyPackage, err)
	}
	return v, nil
}

// channelProperty is the value of an olm.channel property, as far as
// upstream checks it.
type channelProperty struct {
	ChannelName string `json:"channelName"`
}

// decodeProperty decodes a property value into the Go shape upstream
// decodes its type into (any JSON for other types) and returns it.
func decodeProperty(p declcfg.Property) (any, error) {
	var v any
	switch p.Type {
	case declcfg.PropertyPackage:
		v = &declcfg.PackageProperty{}
	case declcfg.PropertyPackageRequired:
		v = &declcfg.PackageRequiredProperty{}
	case declcfg.PropertyGVK, declcfg.PropertyGVKRequired:
		v = &declcfg.GVKProperty{}
	case declcfg.PropertyChannel:
		v = &channelProperty{}
	case declcfg.PropertyCSVMetadata:
		v = &csvmeta.Metadata{}
	default:
		v = &json.RawMessage{}
	}
	if p.Value == nil {
		return nil, errors.New("value is missing")
	}
	if err := json.Unmarshal(p.Value, v); err != nil {
		return nil, describe(err)
	}
	return v, nil
}

// describe says what is wrong with a value in JSON's words rather than
// Go's.
func describe(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	where := "value"
	if te.Field != "" {
		where += "." + te.Field
	}
	return fmt.Errorf("%s must be %s, not %s", where, jsonKind(te.Type), article(te.Value))
}

// jsonKind names the JSON value a Go type is decoded from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "an array"
	}
	return "an object"
}

// article puts "a" or "an" before the name of a JSON value kind
// ("string", "number", "object", "array", "bool", ...).
func article(kind string) string {
	switch kind {
	case "object", "array":
		return "an " + kind
	case "bool":
		return "a boolean"
	}
	return "a " + kind
}
