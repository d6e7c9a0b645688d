package declcfg

import (
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
	// check, if set, must pass a bundle's compact JSON for it to be
	// taken (see QuickCheck).
	check QuickCheck
	// withDoc asks for every bundle's compact JSON in doc (for check, or
	// for the loader's JSON lines).
	withDoc bool
	doc     []byte
	vals    []byte // the current bundle's compacted property values
	ends    []int  // where each property's value ends in vals
	props   []Property
	// related holds, for each related image, which of its fields are
	// there (1: name, 2: image).
	related []uint8
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
// loads, and that q.check passes, and moves c past it. Pos.File and Src
// are left for the caller.
func (q *quickDecoder) bundle(c *value.Cursor) (*Bundle, bool) {
	if !c.Byte('{') {
		return nil, false
	}
	b := &Bundle{Pos: Pos{Line: int(c.Line)}}
	q.vals, q.ends, q.props, q.related = q.vals[:0], q.ends[:0], q.props[:0], q.related[:0]
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
			b.RelatedImages, ok = q.relatedImages(c)
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
	if q.withDoc {
		q.doc = q.appendDoc(q.doc[:0], b, seen)
	}
	if q.check != nil && !q.check(q.doc) {
		return nil, false
	}
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
	q.props = append(q.props, p)
	q.ends = append(q.ends, len(q.vals))
	return true
}

// finishProperties returns the properties read, their values in one
// allocation: each is a slice of it whose capacity ends with the value.
// Without bulk values, those of olm.bundle.object and olm.csv.metadata
// properties are left out.
func (q *quickDecoder) finishProperties() []Property {
	size, start := 0, 0
	for i := range q.props {
		if !q.dropped(i) {
			size += q.ends[i] - start
		}
		start = q.ends[i]
	}
	vals := make([]byte, 0, size)
	props := make([]Property, len(q.props))
	start = 0
	for i, p := range q.props {
		end := q.ends[i]
		if end > start && !q.dropped(i) {
			at := len(vals)
			vals = append(vals, q.vals[start:end]...)
			p.Value = vals[at:len(vals):len(vals)]
		}
		props[i] = p
		start = end
	}
	return props
}

// dropped reports whether the value of property i is left out.
func (q *quickDecoder) dropped(i int) bool {
	t := q.props[i].Type
	return q.dropBulk && (t == PropertyBundleObject || t == PropertyCSVMetadata)
}

// appendDoc appends the bundle read, whose top-level fields seen tells,
// as value.AppendCompact writes its tree: members in the order of their
// keys, no white space. Its strings but property values' are plain (see
// value.Cursor.Plain), which AppendCompact writes as they are.
func (q *quickDecoder) appendDoc(dst []byte, b *Bundle, seen int) []byte {
	dst = append(dst, '{')
	if seen&qImage != 0 {
		dst = appendMember(dst, "image", b.Image)
	}
	if seen&qName != 0 {
		dst = appendMember(dst, "name", b.Name)
	}
	if seen&qPackage != 0 {
		dst = appendMember(dst, "package", b.Package)
	}
	if seen&qProperties != 0 {
		dst = append(dst, `"properties":[`...)
		start := 0
		for i, p := range q.props {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendMember(append(dst, '{'), "type", p.Type)
			dst = append(append(dst, `"value":`...), q.vals[start:q.ends[i]]...)
			dst = append(dst, '}')
			start = q.ends[i]
		}
		dst = append(dst, "],"...)
	}
	if seen&qRelatedImages != 0 {
		dst = append(dst, `"relatedImages":[`...)
		for i, r := range b.RelatedImages {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '{')
			if q.related[i]&2 != 0 {
				dst = appendMember(dst, "image", r.Image)
			}
			if q.related[i]&1 != 0 {
				dst = appendMember(dst, "name", r.Name)
			}
			dst = append(trimComma(dst), '}')
		}
		dst = append(dst, "],"...)
	}
	return append(trimComma(appendMember(dst, "schema", b.Schema)), '}')
}

// appendMember appends "key":"text", (text is plain) and a comma.
func appendMember(dst []byte, key, text string) []byte {
	dst = append(append(append(dst, '"'), key...), `":"`...)
	return append(append(dst, text...), `",`...)
}

// trimComma drops a comma that ends dst.
func trimComma(dst []byte) []byte {
	if n := len(dst); n > 0 && dst[n-1] == ',' {
		return dst[:n-1]
	}
	return dst
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
// image, nothing else, noting in q.related which fields each has.
func (q *quickDecoder) relatedImages(c *value.Cursor) ([]RelatedImage, bool) {
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
		seen, ok := relatedImage(c, &r)
		if !ok {
			return nil, false
		}
		out = append(out, r)
		q.related = append(q.related, seen)
	}
}

// relatedImage reads one related image into r, and tells which fields it
// has (1: name, 2: image).
func relatedImage(c *value.Cursor, r *RelatedImage) (uint8, bool) {
	if !c.Byte('{') {
		return 0, false
	}
	var seen uint8
	for i := 0; ; i++ {
		more, ok := c.Next('}', i)
		if !ok || !more {
			return seen, ok
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
			return 0, false
		}
	}
}
