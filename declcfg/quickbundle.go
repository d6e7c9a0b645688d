package declcfg

import (
	"bytes"

	"github.com/fbcat/opm/encoding/value"
)

// Typing a JSON bundle straight from its bytes. Bundles are almost all of
// a catalog's bytes, and a bundle opm wrote (upstream's or ours) is in the
// form its typed Bundle is written back in: known fields only, each once,
// property values compact but for white space. For such a document the
// tree the parser builds, the typing and the compacting of every
// property value (see decodeBundle) give what a value.Cursor reads off
// the bytes, at a fraction of the cost. A document quickBundle does not
// take, for any reason, is decoded as before from where it starts, so
// what is loaded, warned about and reported does not depend on it.

// quickDepth is how deeply a property value may nest: the parser's limit
// less the document, its properties list and the property.
const quickDepth = value.MaxDepth - 3

// quickDecoder is one worker's state for quickBundle.
type quickDecoder struct {
	dropBulk bool
	vals     []byte // the current bundle's compacted property values
	ends     []int  // where each property's value ends in vals
	props    []Property
}

// Top-level fields of a bundle, as bits.
const (
	qSchema = 1 << iota
	qName
	qPackage
	qImage
	qProperties
	qRelatedImages
)

// bundle types the JSON document at c if it is an olm.bundle blob in
// canonical form (see the comment above) whose olm.bundle.object data
// loads, and moves c past it. Pos.File and Src are left for the caller.
func (q *quickDecoder) bundle(c *value.Cursor) (*Bundle, bool) {
	if !c.Byte('{') {
		return nil, false
	}
	b := &Bundle{Pos: Pos{Line: int(c.Line)}}
	q.vals, q.ends, q.props = q.vals[:0], q.ends[:0], q.props[:0]
	seen := 0
	var schema []byte
	for i := 0; ; i++ {
		more, ok := c.Next('}', i)
		if !ok {
			return nil, false
		}
		if !more {
			break
		}
		key, ok := c.Key()
		if !ok {
			return nil, false
		}
		var bit int
		switch string(key) {
		case "schema":
			bit = qSchema
			schema, ok = c.Plain()
		case "name":
			bit = qName
			c.Space()
			b.NameLine = int(c.Line)
			ok = plainString(c, &b.Name)
		case "package":
			bit = qPackage
			ok = plainString(c, &b.Package)
		case "image":
			bit = qImage
			ok = plainString(c, &b.Image)
		case "properties":
			bit = qProperties
			ok = q.properties(c)
		case "relatedImages":
			bit = qRelatedImages
			b.RelatedImages, ok = relatedImages(c)
		}
		if !ok || bit == 0 || seen&bit != 0 {
			return nil, false
		}
		seen |= bit
	}
	if string(schema) != SchemaBundle {
		return nil, false
	}
	b.Schema = SchemaBundle
	if seen&qProperties != 0 {
		b.Properties = q.finishProperties()
	}
	return b, true
}

// plainString reads a plain string (see value.Cursor.Plain) into dst.
func plainString(c *value.Cursor, dst *string) bool {
	s, ok := c.Plain()
	if ok {
		*dst = string(s)
	}
	return ok
}

// properties reads a bundle's properties into q.
func (q *quickDecoder) properties(c *value.Cursor) bool {
	if !c.Byte('[') {
		return false
	}
	for i := 0; ; i++ {
		more, ok := c.Next(']', i)
		if !ok || !more {
			return ok
		}
		if !q.property(c) {
			return false
		}
	}
}

// property reads one property: an object of a type and a value, nothing
// else.
func (q *quickDecoder) property(c *value.Cursor) bool {
	if !c.Byte('{') {
		return false
	}
	p := Property{Line: int(c.Line)}
	start := len(q.vals)
	var typ []byte
	haveType, haveValue := false, false
	for i := 0; ; i++ {
		more, ok := c.Next('}', i)
		if !ok {
			return false
		}
		if !more {
			break
		}
		key, ok := c.Key()
		switch {
		case !ok:
		case string(key) == "type" && !haveType:
			haveType = true
			typ, ok = c.Plain()
		case string(key) == "value" && !haveValue:
			haveValue = true
			q.vals, ok = c.AppendCanonical(q.vals, quickDepth)
		default:
			ok = false
		}
		if !ok {
			return false
		}
	}
	if !haveType || !haveValue {
		return false
	}
	p.Type = propertyType(typ)
	if p.Type == PropertyBundleObject {
		data, ok := plainBundleObjectData(q.vals[start:])
		if !ok || checkBundleObjectData(data) != nil {
			return false
		}
	}
	if q.dropBulk && (p.Type == PropertyBundleObject || p.Type == PropertyCSVMetadata) {
		q.vals = q.vals[:start]
	}
	q.props = append(q.props, p)
	q.ends = append(q.ends, len(q.vals))
	return true
}

// finishProperties returns the properties read, their values in one
// allocation: each is a slice of it whose capacity ends with the value.
func (q *quickDecoder) finishProperties() []Property {
	vals := bytes.Clone(q.vals)
	props := make([]Property, len(q.props))
	start := 0
	for i, p := range q.props {
		end := q.ends[i]
		if end > start {
			p.Value = vals[start:end:end]
		}
		props[i] = p
		start = end
	}
	return props
}

// propertyType returns the type named by typ, without a copy for the
// types OLM defines.
func propertyType(typ []byte) string {
	switch string(typ) {
	case PropertyPackage:
		return PropertyPackage
	case PropertyGVK:
		return PropertyGVK
	case PropertyGVKRequired:
		return PropertyGVKRequired
	case PropertyPackageRequired:
		return PropertyPackageRequired
	case PropertyBundleObject:
		return PropertyBundleObject
	case PropertyCSVMetadata:
		return PropertyCSVMetadata
	case PropertyChannel:
		return PropertyChannel
	case PropertyConstraint:
		return PropertyConstraint
	}
	return string(typ)
}

// relatedImages reads a list of related images, objects of a name and an
// image, nothing else.
func relatedImages(c *value.Cursor) ([]RelatedImage, bool) {
	if !c.Byte('[') {
		return nil, false
	}
	out := []RelatedImage{}
	for i := 0; ; i++ {
		more, ok := c.Next(']', i)
		if !ok || !more {
			return out, ok
		}
		var r RelatedImage
		if !relatedImage(c, &r) {
			return nil, false
		}
		out = append(out, r)
	}
}

// relatedImage reads one related image into r.
func relatedImage(c *value.Cursor, r *RelatedImage) bool {
	if !c.Byte('{') {
		return false
	}
	seen := 0
	for i := 0; ; i++ {
		more, ok := c.Next('}', i)
		if !ok || !more {
			return ok
		}
		key, ok := c.Key()
		switch {
		case !ok:
		case string(key) == "name" && seen&1 == 0:
			seen |= 1
			ok = plainString(c, &r.Name)
		case string(key) == "image" && seen&2 == 0:
			seen |= 2
			ok = plainString(c, &r.Image)
		default:
			ok = false
		}
		if !ok {
			return false
		}
	}
}
