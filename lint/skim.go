package lint

import "bytes"

// Skimming: the apiVersion, kind and metadata.name of a JSON object
// without building its tree. A catalog's bundle objects are large (CSVs
// with icons, CRDs with schemas) and most rules need only these three
// members; the tree is built when a rule asks for more (see object.root).

// skimObject reads the top-level apiVersion and kind and metadata.name
// of the JSON object data. ok is false when data is not a JSON object
// skimming can read (the caller then parses it whole).
func skimObject(data []byte) (apiVersion, kind, name string, ok bool) {
	ok = skimMembers(data, func(key string, data []byte, i int) (int, bool) {
		var s string
		var good bool
		switch key {
		case "apiVersion", "kind":
			if i < len(data) && data[i] == '"' {
				if s, i, good = plainString(data, i); good && key == "kind" {
					kind = s
				} else if good {
					apiVersion = s
				}
				return i, good
			}
		case "metadata":
			end, good := skipValue(data, i)
			if good && data[i] == '{' {
				good = skimMembers(data[i:end], func(key string, data []byte, j int) (int, bool) {
					if key == "name" && j < len(data) && data[j] == '"' {
						s, j, good := plainString(data, j)
						name = s
						return j, good
					}
					return skipValue(data, j)
				})
			}
			return end, good
		}
		return skipValue(data, i)
	})
	return apiVersion, kind, name, ok
}

// skimMembers walks the members of the object data holds, calling member
// with each key and the offset of its value; member returns the offset
// after the value.
func skimMembers(data []byte, member func(key string, data []byte, i int) (int, bool)) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return true
	}
	for i < len(data) {
		if data[i] != '"' {
			return false
		}
		key, j, ok := plainString(data, i)
		if !ok {
			return false
		}
		j = skipSpace(data, j)
		if j >= len(data) || data[j] != ':' {
			return false
		}
		if i, ok = member(key, data, skipSpace(data, j+1)); !ok {
			return false
		}
		i = skipSpace(data, i)
		switch {
		case i < len(data) && data[i] == ',':
			i = skipSpace(data, i+1)
		case i < len(data) && data[i] == '}':
			return true
		default:
			return false
		}
	}
	return false
}

// plainString reads the string at data[i] ('"'); ok is false for one
// with escapes (left to the full parser).
func plainString(data []byte, i int) (s string, end int, ok bool) {
	j := bytes.IndexAny(data[i+1:], `"\`)
	if j < 0 || data[i+1+j] != '"' {
		return "", 0, false
	}
	return string(data[i+1 : i+1+j]), i + j + 2, true
}

// skipString returns the offset after the string at data[i] ('"').
func skipString(data []byte, i int) (int, bool) {
	for j := i + 1; j < len(data); {
		k := bytes.IndexAny(data[j:], `"\`)
		if k < 0 {
			return 0, false
		}
		if data[j+k] == '"' {
			return j + k + 1, true
		}
		j += k + 2 // an escape and the character it escapes
	}
	return 0, false
}

// skipValue returns the offset after the JSON value at data[i].
func skipValue(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return 0, false
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			k := bytes.IndexAny(data[i:], `"{}[]`)
			if k < 0 {
				return 0, false
			}
			i += k
			switch data[i] {
			case '"':
				end, ok := skipString(data, i)
				if !ok {
					return 0, false
				}
				i = end
				continue
			case '{', '[':
				depth++
			default:
				depth--
			}
			i++
			if depth == 0 {
				return i, true
			}
		}
		return 0, false
	}
	j := i
	for j < len(data) && bytes.IndexByte([]byte(",}] \t\r\n"), data[j]) < 0 {
		j++
	}
	return j, j > i
}

// skipSpace returns the offset of the first byte at or after i that is
// not JSON white space.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
