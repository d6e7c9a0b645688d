// Package fbcyaml reads and writes YAML the way the upstream opm does through
// sigs.k8s.io/yaml and go-yaml v2: YAML 1.1 scalar resolution (yes/no/on/off
// are booleans), documents split on "---" lines, and output whose every byte
// (key order, quoting, folding at 80 columns) matches go-yaml v2's emitter.
package fbcyaml

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// scalarKind is what a plain (unquoted) YAML 1.1 scalar resolves to.
type scalarKind uint8

const (
	kindString scalarKind = iota
	kindNull
	kindBool
	kindInt   // fits int64
	kindUint  // fits uint64 only
	kindFloat // float64, possibly ±Inf or NaN
	kindTimestamp
)

type resolved struct {
	kind scalarKind
	b    bool
	i    int64
	u    uint64
	f    float64
}

// isYAMLFloat matches go-yaml v2's float syntax,
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$, without a regexp.
func isYAMLFloat(s string) bool {
	i := 0
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

var base60Float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// resolvePlain resolves an untagged plain scalar with go-yaml v2's rules.
func resolvePlain(s string) resolved {
	if s == "" {
		return resolved{kind: kindNull}
	}
	switch s[0] {
	case 'y', 'Y', 'n', 'N', 't', 'T', 'f', 'F', 'o', 'O', '~':
		return resolveWord(s)
	case '.':
		if r, ok := resolveSpecialFloat(s); ok {
			return r
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return resolved{kind: kindFloat, f: f}
		}
	case '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if r, ok := resolveSpecialFloat(s); ok {
			return r
		}
		if isTimestamp(s) {
			return resolved{kind: kindTimestamp}
		}
		plain := strings.ReplaceAll(s, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return resolved{kind: kindInt, i: i}
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return resolved{kind: kindUint, u: u}
		}
		if isYAMLFloat(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return resolved{kind: kindFloat, f: f}
			}
		}
		if strings.HasPrefix(plain, "0b") {
			if i, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
				return resolved{kind: kindInt, i: i}
			}
			if u, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
				return resolved{kind: kindUint, u: u}
			}
		} else if strings.HasPrefix(plain, "-0b") {
			if i, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
				// go-yaml v2 narrows this one to a machine int.
				return resolved{kind: kindInt, i: int64(int(i))}
			}
		}
	}
	return resolved{kind: kindString}
}

func resolveWord(s string) resolved {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return resolved{kind: kindBool, b: true}
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return resolved{kind: kindBool, b: false}
	case "~", "null", "Null", "NULL":
		return resolved{kind: kindNull}
	}
	return resolved{kind: kindString}
}

func resolveSpecialFloat(s string) (resolved, bool) {
	switch s {
	case ".nan", ".NaN", ".NAN":
		return resolved{kind: kindFloat, f: math.NaN()}, true
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return resolved{kind: kindFloat, f: math.Inf(1)}, true
	case "-.inf", "-.Inf", "-.INF":
		return resolved{kind: kindFloat, f: math.Inf(-1)}, true
	}
	return resolved{}, false
}

var timestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isTimestamp reports whether a plain scalar reads as a YAML timestamp.
// go-yaml v2 keeps such values as strings when decoding into interface{},
// but the emitter must still quote them.
func isTimestamp(s string) bool {
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, f := range timestampFormats {
		if _, err := time.Parse(f, s); err == nil {
			return true
		}
	}
	return false
}

// needsQuotes reports whether go-yaml v2 refuses to write s as a plain
// scalar because it would read back as something other than that string.
func needsQuotes(s string) bool {
	if resolvePlain(s).kind != kindString {
		return true
	}
	if s == "" {
		return false
	}
	c := s[0]
	if !(c == '+' || c == '-' || c >= '0' && c <= '9') || strings.IndexByte(s, ':') < 0 {
		return false
	}
	return base60Float.MatchString(s)
}
