package fbcyaml

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// Decode parses one YAML document into a value tree with exactly the result
// upstream gets from sigs.k8s.io/yaml followed by a JSON round trip through
// map[string]any. line is the file line the document starts on. A document
// holding only white space or comments decodes to a Null value.
func Decode(doc []byte, line int32) (value.Value, error) {
	v, _, err := DecodeWithDuplicates(doc, line)
	return v, err
}

// DecodeWithDuplicates is Decode that also returns the keys that the
// document's top-level mapping holds more than once (of which decoding
// keeps the last), in document order: two documents run together without
// a "---" between them repeat "schema".
func DecodeWithDuplicates(doc []byte, line int32) (value.Value, []value.Duplicate, error) {
	return decode(doc, line, false, nil)
}

// DecodeCompactingProperties is DecodeWithDuplicates for a caller that
// does nothing with the values of the document's properties (the items of
// its top-level "properties" list) but compact them: where the fast path
// reads the document, such a value that is a collection comes as a
// value.Raw node holding its compact JSON, which costs a fraction of its
// tree. Where go-yaml reads it, the values are trees as ever.
func DecodeCompactingProperties(doc []byte, line int32) (value.Value, []value.Duplicate, error) {
	return decode(doc, line, true, nil)
}

// DecodeWithDuplicatesIn is DecodeWithDuplicates building the
// document's collections in a (see Arena).
func DecodeWithDuplicatesIn(doc []byte, line int32, a *Arena) (value.Value, []value.Duplicate, error) {
	return decode(doc, line, false, a)
}

// DecodeCompactingPropertiesIn is DecodeCompactingProperties building
// the document's collections in a, and with a.Values the compact JSON of
// its property values too (see Arena).
func DecodeCompactingPropertiesIn(doc []byte, line int32, a *Arena) (value.Value, []value.Duplicate, error) {
	return decode(doc, line, true, a)
}

func decode(doc []byte, line int32, compactProps bool, a *Arena) (value.Value, []value.Duplicate, error) {
	if v, dups, ok, err := fastDecode(doc, line, compactProps, a); ok {
		return v, dups, err
	}
	v, err := slowDecode(doc, line)
	if err != nil || v.Kind != value.Object {
		return v, nil, err
	}
	return v, topLevelDuplicates(doc, line, &v), nil
}

// slowDecode goes through go-yaml v2 itself. The tree it returns carries the
// document's line only.
func slowDecode(doc []byte, line int32) (value.Value, error) {
	first := firstContentLine(doc, line)
	if binaryAliasRisk(doc) {
		return value.Value{}, &position.Error{Line: int(first), Message: binaryAliasMsg(len(doc))}
	}
	var obj any
	if err := yamlv2.Unmarshal(doc, &obj); err != nil {
		return value.Value{}, tabInIndentation(doc, line, yamlError(err, line, line+int32(bytes.Count(doc, []byte{'\n'}))-1))
	}
	c := converter{budget: expansionLimit(len(doc))}
	v, err := c.convert(obj)
	if err != nil {
		e := &position.Error{Line: int(first), Message: err.Error()}
		if c.nonFinite {
			locateNonFinite(doc, line, e)
		}
		return value.Value{}, e
	}
	v.SetPos(first, 1)
	return v, nil
}

// firstContentLine is the line of a document's first content, past blank
// and comment lines and a leading "---"; for a document without content,
// the line it starts on.
func firstContentLine(doc []byte, start int32) int32 {
	for line := start; len(doc) > 0; line++ {
		end := bytes.IndexByte(doc, '\n')
		if end < 0 {
			end = len(doc)
		}
		l := bytes.TrimSpace(doc[:end])
		if len(l) > 0 && l[0] != '#' && !(bytes.HasPrefix(l, []byte("---")) && (len(l) == 3 || l[3] == ' ' || l[3] == '#')) {
			return line
		}
		if end == len(doc) {
			break
		}
		doc = doc[end+1:]
	}
	return start
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are the problems go-yaml's parser (as opposed to its
// scanner) reports. go-yaml numbers their lines from 0, one less than
// the line of the problem, and leaves the number out on the first line.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// yamlError turns go-yaml's "yaml: line N: msg" into an error at the file
// line, for a document on lines first to last. A problem found at the end
// of the document is put on its last line.
func yamlError(err error, first, last int32) *position.Error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			n++
		}
		return &position.Error{Line: int(min(first+int32(n)-1, max(last, first))), Message: depthMsg(m[2])}
	}
	if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return &position.Error{Line: int(first), Message: depthMsg(msg)}
}

// depthMsg says what go-yaml's depth limit counts.
func depthMsg(msg string) string {
	if msg == fmt.Sprintf("exceeded max depth of %d", value.MaxDepth) {
		return maxDepthMsg
	}
	return msg
}

var maxDepthMsg = fmt.Sprintf("exceeded max depth of %d nested lists and objects", value.MaxDepth)

func nonFiniteMsg(f float64) string {
	return fmt.Sprintf("the number %v cannot be represented in JSON; quote it if it is meant as text", f)
}

// converter turns go-yaml v2's decoded value into a value tree the way
// sigs.k8s.io/yaml and encoding/json do: map keys become strings,
// numbers become float64, and NaN or infinities are refused as JSON
// cannot carry them. It refuses trees nested deeper than value.MaxDepth
// and trees larger than its budget, which aliases can make of a small
// document. Map members are converted in key order, so that the error
// reported for a document is always the same.
type converter struct {
	budget    int // bytes of tree left: string lengths, plus one per node
	depth     int
	nonFinite bool // the error is a NaN or an infinity
}

func (c *converter) convert(obj any) (value.Value, error) {
	c.budget--
	if c.budget < 0 {
		return value.Value{}, errExpansion
	}
	switch x := obj.(type) {
	case nil:
		return value.Value{Kind: value.Null}, nil
	case bool:
		return value.Value{Kind: value.Bool, Bool: x}, nil
	case string:
		if c.budget -= len(x); c.budget < 0 {
			return value.Value{}, errExpansion
		}
		return value.Value{Kind: value.String, Str: value.ValidUTF8(x)}, nil
	case int:
		return value.Value{Kind: value.Number, Num: float64(x), Str: strconv.Itoa(x)}, nil
	case int64:
		return value.Value{Kind: value.Number, Num: float64(x), Str: strconv.FormatInt(x, 10)}, nil
	case uint64:
		return value.Value{Kind: value.Number, Num: float64(x), Str: strconv.FormatUint(x, 10)}, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			c.nonFinite = true
			return value.Value{}, errors.New(nonFiniteMsg(x))
		}
		return value.Value{Kind: value.Number, Num: x}, nil
	case []any:
		if err := c.nest(); err != nil {
			return value.Value{}, err
		}
		v := value.Value{Kind: value.Array, Items: make([]value.Value, 0, len(x))}
		for _, item := range x {
			iv, err := c.convert(item)
			if err != nil {
				return value.Value{}, err
			}
			v.Items = append(v.Items, iv)
		}
		c.depth--
		return v, nil
	case map[any]any:
		if err := c.nest(); err != nil {
			return value.Value{}, err
		}
		v, err := c.convertMap(x)
		c.depth--
		return v, err
	}
	return value.Value{}, fmt.Errorf("unsupported YAML value of type %T", obj)
}

func (c *converter) nest() error {
	c.depth++
	if c.depth > value.MaxDepth {
		return errors.New(maxDepthMsg)
	}
	return nil
}

func (c *converter) convertMap(m map[any]any) (value.Value, error) {
	type member struct {
		key  string
		rank int // keys of different types may read the same
		item any
	}
	members := make([]member, 0, len(m))
	for k, item := range m {
		key, err := mapKey(k)
		if err != nil {
			return value.Value{}, err
		}
		if c.budget -= len(key); c.budget < 0 {
			return value.Value{}, errExpansion
		}
		members = append(members, member{key, keyRank(k), item})
	}
	// Of keys that read the same ("1" and 1), a fixed one wins, not the
	// one map order puts last.
	slices.SortFunc(members, func(a, b member) int {
		return cmp.Or(strings.Compare(a.key, b.key), cmp.Compare(a.rank, b.rank))
	})
	v := value.Value{Kind: value.Object, Fields: make([]value.Field, 0, len(members))}
	for _, mb := range members {
		iv, err := c.convert(mb.item)
		if err != nil {
			return value.Value{}, err
		}
		v.Fields = append(v.Fields, value.Field{Key: mb.key, Value: iv})
	}
	v.Fields = value.NormalizeFields(v.Fields)
	return v, nil
}

// keyRank orders the types of map keys: of keys that convert to the same
// string, the one of the highest rank is kept.
func keyRank(k any) int {
	switch k.(type) {
	case bool:
		return 1
	case int:
		return 2
	case int64:
		return 3
	case float64:
		return 4
	case string:
		return 5
	}
	return 0
}

// mapKey converts a non-string YAML key as sigs.k8s.io/yaml does.
func mapKey(k any) (string, error) {
	switch x := k.(type) {
	case string:
		return value.ValidUTF8(x), nil
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s, nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", fmt.Errorf("unsupported map key %v of type %T: keys must be strings, numbers or booleans", k, k)
}
