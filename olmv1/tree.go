// Editing JSON trees: the manifests OLM v1 copies and changes.

package olmv1

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// toValue turns a Go value into a tree through its JSON.
func toValue(v any) value.Value {
	return *toObject(v).Value
}

// clone copies a tree deeply, so that edits leave the bundle alone.
func clone(v *value.Value) *value.Value {
	c := *v
	if v.Items != nil {
		c.Items = make([]value.Value, len(v.Items))
		for i := range v.Items {
			c.Items[i] = *clone(&v.Items[i])
		}
	}
	if v.Fields != nil {
		c.Fields = make([]value.Field, len(v.Fields))
		for i, f := range v.Fields {
			c.Fields[i] = value.Field{Key: f.Key, Value: *clone(&f.Value)}
		}
	}
	return &c
}

// setField sets the member key of object v, keeping members sorted.
func setField(v *value.Value, key string, val value.Value) {
	i, found := slices.BinarySearchFunc(v.Fields, key, func(f value.Field, k string) int { return strings.Compare(f.Key, k) })
	if found {
		v.Fields[i].Value = val
		return
	}
	v.Fields = slices.Insert(v.Fields, i, value.Field{Key: key, Value: val})
}

// deleteField removes the member key of object v.
func deleteField(v *value.Value, key string) {
	v.Fields = slices.DeleteFunc(v.Fields, func(f value.Field) bool { return f.Key == key })
}

// objectAt returns the object at keys below v, making (or replacing with)
// empty objects where there is none.
func objectAt(v *value.Value, keys ...string) *value.Value {
	for _, k := range keys {
		next, ok := v.Get(k)
		if !ok || next.Kind != value.Object {
			setField(v, k, value.Value{Kind: value.Object})
			next, _ = v.Get(k)
		}
		v = next
	}
	return v
}

// stringMap reads an object of strings (annotations, labels); members
// that are not strings are skipped.
func stringMap(v *value.Value) map[string]string {
	if v == nil || v.Kind != value.Object {
		return nil
	}
	m := make(map[string]string, len(v.Fields))
	for _, f := range v.Fields {
		if f.Value.Kind == value.String {
			m[f.Key] = f.Value.Str
		}
	}
	return m
}

// strValue and intValue make leaves.
func strValue(s string) value.Value { return value.Value{Kind: value.String, Str: s} }

func intValue(n int64) value.Value {
	return value.Value{Kind: value.Number, Num: float64(n), Str: strconv.FormatInt(n, 10)}
}

// parseTree parses JSON that this package encoded or read already.
func parseTree(data []byte) (*value.Value, error) {
	v, err := value.ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("reading JSON: %w", err)
	}
	return &v, nil
}
