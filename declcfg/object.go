package declcfg

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/cases"

	"github.com/fbcat/opm/encoding/value"
)

// Object is one decoded catalog blob before it is turned into a typed
// Package, Channel, Bundle, Deprecation or Meta. Checks that need the whole
// tree (schema validation) look at Objects.
type Object struct {
	Pos     Pos
	Schema  string
	Package string
	Name    string
	Value   *value.Value
}

// metaOf reads schema, package and name from a top-level object, as
// upstream does: keys are matched ignoring case, two keys that differ only
// in case are an error, and the three fields must be strings if present.
func metaOf(v *value.Value) (Object, *Error) {
	obj := Object{Value: v}
	seen := make(map[string]string, len(v.Fields))
	var dups []string
	for _, f := range v.Fields {
		folded := foldKey(f.Key)
		if prev, ok := seen[folded]; ok {
			dups = append(dups, fmt.Sprintf("%q and %q", prev, f.Key))
			continue
		}
		seen[folded] = f.Key
	}
	if len(dups) > 0 {
		return obj, &Error{Line: int(v.Line), Column: int(v.Col), Message: fmt.Sprintf("keys differ only in upper/lower case: %s; keep one of each", strings.Join(dups, ", "))}
	}
	for _, m := range []struct {
		key string
		dst *string
	}{{"schema", &obj.Schema}, {"package", &obj.Package}, {"name", &obj.Name}} {
		key, ok := seen[m.key]
		if !ok {
			continue
		}
		fv, _ := v.Get(key)
		if fv.Kind != value.String {
			return obj, &Error{Line: int(fv.Line), Column: int(fv.Col), Message: fmt.Sprintf("field %q must be a string, not %s", key, value.Describe(fv))}
		}
		*m.dst = fv.Str
	}
	if obj.Schema == "" {
		return obj, &Error{Line: int(v.Line), Column: int(v.Col), Message: "object has no \"schema\" field: every catalog object needs one (olm.package, olm.channel, olm.bundle, olm.deprecations or your own schema)"}
	}
	return obj, nil
}

var folder = cases.Fold()

func foldKey(k string) string {
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			return folder.String(k)
		}
	}
	return strings.ToLower(k)
}

// fieldError is a typed-decoding failure at a node.
func fieldError(v *value.Value, path, want string) *Error {
	return &Error{Line: int(v.Line), Column: int(v.Col), Message: fmt.Sprintf("%s must be %s, not %s", path, want, value.Describe(v))}
}

// structField is one field of a Go struct as encoding/json sees it.
type structField struct {
	name   string
	decode func(v *value.Value, path string) *Error
}

// decoder types objects.
type decoder struct {
	// dropBulk drops the values of bundle object and CSV metadata
	// properties.
	dropBulk bool
	// unknown, if set, is told of every key decodeStruct ignores: its
	// path (list indexes as "[]") and the member's value.
	unknown func(path string, v *value.Value)
}

// decodeStruct applies encoding/json's rules for decoding an object into a
// struct: keys match field names exactly or else ignoring case, unknown keys
// are ignored, and null leaves a field as it is.
func (d *decoder) decodeStruct(v *value.Value, path string, fields []structField) *Error {
	if v.Kind == value.Null {
		return nil
	}
	if v.Kind != value.Object {
		return fieldError(v, path, "an object")
	}
	for i := range v.Fields {
		f := &v.Fields[i]
		var match *structField
		for j := range fields {
			if fields[j].name == f.Key {
				match = &fields[j]
				break
			}
			if match == nil && strings.EqualFold(fields[j].name, f.Key) {
				match = &fields[j]
			}
		}
		if match == nil {
			if d.unknown != nil {
				d.unknown(joinPath(path, f.Key), &f.Value)
			}
			continue
		}
		if err := match.decode(&f.Value, joinPath(path, match.name)); err != nil {
			return err
		}
	}
	return nil
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func str(dst *string) func(*value.Value, string) *Error {
	return func(v *value.Value, path string) *Error {
		switch v.Kind {
		case value.String:
			*dst = v.Str
		case value.Null:
		default:
			return fieldError(v, path, "a string")
		}
		return nil
	}
}

func strList(dst *[]string) func(*value.Value, string) *Error {
	return listOf(dst, "a list of strings", func(s *string, v *value.Value, path string) *Error { return str(s)(v, path) })
}

// list decodes a JSON array into a slice, element by element.
func list[T any](dst *[]T, elem func(*T, *value.Value, string) *Error) func(*value.Value, string) *Error {
	return listOf(dst, "a list", elem)
}

// listOf is list with what the array must be, for the error of anything
// else.
func listOf[T any](dst *[]T, what string, elem func(*T, *value.Value, string) *Error) func(*value.Value, string) *Error {
	return func(v *value.Value, path string) *Error {
		switch v.Kind {
		case value.Null:
			*dst = nil
			return nil
		case value.Array:
		default:
			return fieldError(v, path, what)
		}
		out := make([]T, len(v.Items))
		for i := range v.Items {
			if err := elem(&out[i], &v.Items[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		*dst = out
		return nil
	}
}

// properties decodes a list of properties. With d.dropBulk, the values
// of bundle object and CSV metadata properties are not kept.
func (d *decoder) properties(dst *[]Property) func(*value.Value, string) *Error {
	return list(dst, func(p *Property, v *value.Value, path string) *Error {
		p.Line = int(v.Line)
		var raw *value.Value
		err := d.decodeStruct(v, path, []structField{
			{"type", str(&p.Type)},
			{"value", func(v *value.Value, _ string) *Error {
				raw = v
				return nil
			}},
		})
		if raw != nil && !(d.dropBulk && (p.Type == PropertyBundleObject || p.Type == PropertyCSVMetadata)) {
			p.Value = value.Compact(raw)
		}
		return err
	})
}

func (d *decoder) decodePackage(obj *Object) (Package, *Error) {
	p := Package{Pos: obj.Pos}
	err := d.decodeStruct(obj.Value, "", []structField{
		{"schema", str(&p.Schema)},
		{"name", str(&p.Name)},
		{"defaultChannel", str(&p.DefaultChannel)},
		{"icon", func(v *value.Value, path string) *Error {
			if v.Kind == value.Null {
				p.Icon = nil
				return nil
			}
			if p.Icon == nil {
				p.Icon = &Icon{}
			}
			return d.decodeStruct(v, path, []structField{
				{"base64data", func(v *value.Value, path string) *Error {
					switch v.Kind {
					case value.Null:
						p.Icon.Data = nil
						return nil
					case value.String:
					default:
						return fieldError(v, path, "a base64 string")
					}
					data, err := base64.StdEncoding.DecodeString(v.Str)
					if err != nil {
						return &Error{Line: int(v.Line), Column: int(v.Col), Message: fmt.Sprintf("%s is not valid base64: %v", path, err)}
					}
					p.Icon.Data = data
					return nil
				}},
				{"mediatype", str(&p.Icon.MediaType)},
			})
		}},
		{"description", str(&p.Description)},
		{"properties", d.properties(&p.Properties)},
	})
	return p, err
}

func (d *decoder) decodeChannel(obj *Object) (Channel, *Error) {
	c := Channel{Pos: obj.Pos}
	err := d.decodeStruct(obj.Value, "", []structField{
		{"schema", str(&c.Schema)},
		{"name", str(&c.Name)},
		{"package", str(&c.Package)},
		{"entries", list(&c.Entries, func(e *ChannelEntry, v *value.Value, path string) *Error {
			e.Line = int(v.Line)
			return d.decodeStruct(v, path, []structField{
				{"name", str(&e.Name)},
				{"replaces", str(&e.Replaces)},
				{"skips", strList(&e.Skips)},
				{"skipRange", str(&e.SkipRange)},
			})
		})},
		{"properties", d.properties(&c.Properties)},
	})
	return c, err
}

func (d *decoder) decodeBundle(obj *Object) (Bundle, *Error) {
	b := Bundle{Pos: obj.Pos}
	err := d.decodeStruct(obj.Value, "", []structField{
		{"schema", str(&b.Schema)},
		{"name", func(v *value.Value, path string) *Error {
			b.NameLine = int(v.Line)
			return str(&b.Name)(v, path)
		}},
		{"package", str(&b.Package)},
		{"image", str(&b.Image)},
		{"properties", d.properties(&b.Properties)},
		{"relatedImages", list(&b.RelatedImages, func(r *RelatedImage, v *value.Value, path string) *Error {
			return d.decodeStruct(v, path, []structField{
				{"name", str(&r.Name)},
				{"image", str(&r.Image)},
			})
		})},
	})
	return b, err
}

func (d *decoder) decodeDeprecation(obj *Object) (Deprecation, *Error) {
	dep := Deprecation{Pos: obj.Pos}
	err := d.decodeStruct(obj.Value, "", []structField{
		{"schema", str(&dep.Schema)},
		{"package", str(&dep.Package)},
		{"entries", list(&dep.Entries, func(e *DeprecationEntry, v *value.Value, path string) *Error {
			e.Line = int(v.Line)
			return d.decodeStruct(v, path, []structField{
				{"reference", func(v *value.Value, path string) *Error {
					return d.decodeStruct(v, path, []structField{
						{"schema", str(&e.Reference.Schema)},
						{"name", str(&e.Reference.Name)},
					})
				}},
				{"message", str(&e.Message)},
			})
		})},
	})
	return dep, err
}

// bundleObjectErrors checks what upstream's loader checks of every
// olm.bundle.object property of a bundle: its value is an object whose
// data is standard base64 of a JSON or YAML document. It returns a problem
// for every property that fails, not only the first; problems with the
// shape of a value (not an object, data not a string) only if shapes is
// set, for callers whose schema check has not reported them already.
func bundleObjectErrors(obj *Object, shapes bool) []*Error {
	v := obj.Value
	props, ok := v.Get(fieldKey(v, "properties"))
	if !ok || props.Kind != value.Array {
		return nil
	}
	var errs []*Error
	for i := range props.Items {
		node := &props.Items[i]
		if node.Kind != value.Object {
			continue
		}
		typ, ok := node.Get(fieldKey(node, "type"))
		if !ok || typ.Kind != value.String || typ.Str != PropertyBundleObject {
			continue
		}
		val, ok := node.Get(fieldKey(node, "value"))
		if !ok {
			continue
		}
		if err, shape := checkBundleObject(val, fmt.Sprintf("properties[%d].value", i)); err != nil && (shapes || !shape) {
			err.setSubject(obj)
			errs = append(errs, err)
		}
	}
	return errs
}

// checkBundleObject checks one olm.bundle.object value; shape tells
// whether what is wrong is its shape rather than its data.
func checkBundleObject(v *value.Value, path string) (err *Error, shape bool) {
	var data string
	err = (&decoder{}).decodeStruct(v, path, []structField{{"data", func(v *value.Value, path string) *Error {
		switch v.Kind {
		case value.String:
			data = v.Str
		case value.Null:
		default:
			return fieldError(v, path, "a base64 string")
		}
		return nil
	}}})
	if err != nil {
		return err, true
	}
	// The string's bytes are only read, during the call: converting it
	// would copy the data (most of a catalog's bytes) for nothing.
	if err := checkBundleObjectData(unsafe.Slice(unsafe.StringData(data), len(data))); err != nil {
		return &Error{Line: int(v.Line), Column: int(v.Col), Message: fmt.Sprintf("%s.data: %v", path, err)}, false
	}
	return nil, false
}

// fieldKey returns the key of v that encoding/json would decode into a
// field called name: the last one equal to name ignoring case.
func fieldKey(v *value.Value, name string) string {
	key := ""
	for _, f := range v.Fields {
		if strings.EqualFold(f.Key, name) {
			key = f.Key
		}
	}
	return key
}

// typed turns a decoded object into a typed one, as d says.
func typed(obj *Object, d *decoder) (Item, *Error) {
	var it Item
	var err *Error
	switch obj.Schema {
	case SchemaPackage:
		var p Package
		p, err = d.decodePackage(obj)
		it.Package = &p
	case SchemaChannel:
		var c Channel
		c, err = d.decodeChannel(obj)
		it.Channel = &c
	case SchemaBundle:
		var b Bundle
		b, err = d.decodeBundle(obj)
		it.Bundle = &b
	case SchemaDeprecations:
		var dep Deprecation
		dep, err = d.decodeDeprecation(obj)
		it.Deprecation = &dep
	default:
		it.Meta = &Meta{
			Schema:  obj.Schema,
			Package: obj.Package,
			Name:    obj.Name,
			Blob:    value.Compact(obj.Value),
			Pos:     obj.Pos,
		}
	}
	if err != nil {
		err.setSubject(obj)
		return Item{}, err
	}
	return it, nil
}

// Errorf returns a problem with obj at a line and column of its file (the
// object's own line if line is 0), naming the object.
func (obj *Object) Errorf(line, col int, format string, args ...any) *Error {
	if line == 0 {
		line, col = obj.Pos.Line, 0
	}
	e := &Error{File: obj.Pos.File, Line: line, Column: col, Message: fmt.Sprintf(format, args...)}
	e.setSubject(obj)
	return e
}

// setSubject names the object an error is about.
func (e *Error) setSubject(obj *Object) {
	e.Schema = obj.Schema
	switch obj.Schema {
	case SchemaPackage:
		e.Package = obj.Name
	case SchemaChannel:
		e.Package, e.Channel = obj.Package, obj.Name
	case SchemaBundle:
		e.Package, e.Bundle = obj.Package, obj.Name
	default:
		e.Package = obj.Package
	}
}
