package validate

import "github.com/distribution/reference"

// checkImageRef checks an image pull spec as upstream does, with
// reference.ParseNormalizedNamed. That parser runs regular expressions,
// which cost a tenth of validating a large catalog; the common shapes
// (registry.example.com/path/name:tag, ...@sha256:hex) are recognised
// first by plainImageRef, which accepts only what the parser accepts.
func checkImageRef(s string) error {
	if plainImageRef(s) {
		return nil
	}
	_, err := reference.ParseNormalizedNamed(s)
	return err
}

// plainImageRef reports whether s is DOMAIN/PATH[:TAG][@sha256:HEX] with
// a lowercase domain that holds a dot or a port, a short path of lowercase
// components, a tag of at most 128 characters and a 64-digit lowercase
// sha256 digest: a subset of the references ParseNormalizedNamed accepts.
func plainImageRef(s string) bool {
	i, ok := domainEnd(s)
	if !ok || i >= len(s) || s[i] != '/' {
		return false
	}
	start := i + 1
	i, ok = pathEnd(s, start)
	if !ok || i-start > 200 {
		return false
	}
	if i < len(s) && s[i] == ':' {
		j := i + 1
		for j < len(s) && j-i-1 < 128 && (wordByte(s[j]) || j > i+1 && (s[j] == '.' || s[j] == '-')) {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && s[i] == '@' {
		const alg = "sha256:"
		d := s[i+1:]
		if len(d) != len(alg)+64 || d[:len(alg)] != alg {
			return false
		}
		for k := len(alg); k < len(d); k++ {
			if c := d[k]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
		i = len(s)
	}
	return i == len(s)
}

// domainEnd returns the end of a domain of dot-separated lowercase
// components (letters, digits, inner hyphens) with an optional port, and
// whether it holds a dot or a port, which makes the parser take it for a
// domain.
func domainEnd(s string) (int, bool) {
	i, dots := 0, 0
	for {
		j := i
		for j < len(s) && (lowerAlnum(s[j]) || s[j] == '-') {
			j++
		}
		if j == i || s[i] == '-' || s[j-1] == '-' {
			return 0, false
		}
		i = j
		if i < len(s) && s[i] == '.' {
			i++
			dots++
			continue
		}
		break
	}
	if i < len(s) && s[i] == ':' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+1 {
			return 0, false
		}
		return j, true
	}
	return i, dots > 0
}

// pathEnd returns the end of a repository path from start: components of
// lowercase letters and digits, joined within a component by ".", "_",
// "__" or a run of "-", and separated by "/".
func pathEnd(s string, start int) (int, bool) {
	i := start
	for {
		// A component: alphanumeric runs joined by separators.
		for {
			j := i
			for j < len(s) && lowerAlnum(s[j]) {
				j++
			}
			if j == i {
				return 0, false
			}
			i = j
			if i >= len(s) {
				return i, true
			}
			switch s[i] {
			case '.':
				i++
			case '_':
				i++
				if i < len(s) && s[i] == '_' {
					i++
				}
			case '-':
				for i < len(s) && s[i] == '-' {
					i++
				}
			default:
				goto componentEnd
			}
		}
	componentEnd:
		if s[i] != '/' {
			return i, true
		}
		i++
	}
}

func lowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func wordByte(c byte) bool {
	return lowerAlnum(c) || c >= 'A' && c <= 'Z' || c == '_'
}
