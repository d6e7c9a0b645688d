package declcfg

import "github.com/fbcat/opm/encoding/value"

// TypeValue types one catalog object that was decoded elsewhere (an entry
// of a catalog template, for instance) exactly as the loader types each
// document of a catalog file. pos is where the object starts; problems
// are reported there, or at the line of the offending field when the
// value tree knows it.
func TypeValue(v *value.Value, pos Pos) (Item, *Error) {
	obj, err := metaOf(v)
	obj.Pos = pos
	if err == nil {
		var it Item
		if it, err = typed(&obj, &decoder{}); err == nil {
			return it, nil
		}
	}
	err.File = pos.File
	if err.Line == 0 {
		err.Line = pos.Line
	}
	return Item{}, err
}
