package value

import "slices"

// RawFields returns the raw JSON of the members of the JSON object data
// whose names are among keys (the first member of each name), skipping
// the other members without decoding them (see ScanObject). It is for
// reading a few small members of a large object, such as the install
// modes of an olm.csv.metadata value whose description and examples make
// up most of it. The returned values are not checked at all, so decode
// them with a validating decoder.
func RawFields(data []byte, keys ...string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := ScanObject(data, func(key string, raw []byte) error {
		if _, seen := out[key]; !seen && slices.Contains(keys, key) {
			out[key] = raw
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
