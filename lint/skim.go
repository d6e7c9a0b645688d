package lint

import (
	"errors"

	"github.com/fbcat/opm/encoding/value"
)

// Skimming: the apiVersion, kind and metadata.name of a JSON object
// without building its tree. A catalog's bundle objects are large (CSVs
// with icons, CRDs with schemas) and most rules need only these three
// members; the tree is built when a rule asks for more (see object.root).

// errSkim stops a skim of a malformed string.
var errSkim = errors.New("malformed string")

// skimObject reads the top-level apiVersion and kind and metadata.name
// of the JSON object data (see value.ScanObject), each "" when it is not
// a string, the last of a repeated key counting, as in the object's tree.
// ok is false when data is not a JSON object skimming can read (the
// caller then parses it whole, for the error).
func skimObject(data []byte) (apiVersion, kind, name string, ok bool) {
	err := value.ScanObject(data, func(key string, raw []byte) error {
		var err error
		switch key {
		case "apiVersion":
			apiVersion, err = skimString(raw)
		case "kind":
			kind, err = skimString(raw)
		case "metadata":
			name = ""
			if raw[0] == '{' {
				err = value.ScanObject(raw, func(key string, raw []byte) error {
					var err error
					if key == "name" {
						name, err = skimString(raw)
					}
					return err
				})
			}
		}
		return err
	})
	return apiVersion, kind, name, err == nil
}

// skimString is the string raw holds, "" for any other value.
func skimString(raw []byte) (string, error) {
	if raw[0] != '"' {
		return "", nil
	}
	if s, ok := value.RawString(raw); ok {
		return s, nil
	}
	return "", errSkim
}
