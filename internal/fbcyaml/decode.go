package fbcyaml

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"

	yamlv2 "go.yaml.in/yaml/v2"

	"github.com/fbcat/opm/internal/value"
)

// Error is a YAML problem at a line of the file.
type Error struct {
	Line int32
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Decode parses one YAML document into a value tree with exactly the result
// upstream gets from sigs.k8s.io/yaml followed by a JSON round trip through
// map[string]any. line is the file line the document starts on. A document
// holding only white space or comments decodes to a Null value.
func Decode(doc []byte, line int32) (value.Value, error) {
	if v, ok, err := fastDecode(doc, line); ok {
		return v, err
	}
	return slowDecode(doc, line)
}

// slowDecode goes through go-yaml v2 itself. The tree it returns carries the
// document's line only.
func slowDecode(doc []byte, line int32) (value.Value, error) {
	var obj any
	if err := yamlv2.Unmarshal(doc, &obj); err != nil {
		return value.Value{}, yamlError(err, line)
	}
	v, err := fromGoYAML(obj)
	if err != nil {
		return value.Value{}, &Error{Line: line, Msg: err.Error()}
	}
	v.SetPos(firstContentLine(doc, line), 1)
	return v, nil
}

// firstContentLine is the line of a document's first content, past blank
// and comment lines and a leading "---".
func firstContentLine(doc []byte, line int32) int32 {
	for len(doc) > 0 {
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
		line++
	}
	return line
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns go-yaml's "yaml: line N: msg" into an error at the file line.
func yamlError(err error, first int32) *Error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &Error{Line: first + int32(n) - 1, Msg: m[2]}
	}
	if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return &Error{Line: first, Msg: msg}
}

// fromGoYAML converts go-yaml v2's decoded value the way sigs.k8s.io/yaml
// and encoding/json do: map keys become strings, numbers become float64,
// and NaN or infinities are refused as JSON cannot carry them.
func fromGoYAML(obj any) (value.Value, error) {
	switch x := obj.(type) {
	case nil:
		return value.Value{Kind: value.Null}, nil
	case bool:
		return value.Value{Kind: value.Bool, Bool: x}, nil
	case string:
		return value.Value{Kind: value.String, Str: value.ValidUTF8(x)}, nil
	case int:
		return value.Value{Kind: value.Number, Num: float64(x), Str: strconv.Itoa(x)}, nil
	case int64:
		return value.Value{Kind: value.Number, Num: float64(x), Str: strconv.FormatInt(x, 10)}, nil
	case uint64:
		return value.Value{Kind: value.Number, Num: float64(x), Str: strconv.FormatUint(x, 10)}, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return value.Value{}, fmt.Errorf("the number %v cannot be represented in JSON", x)
		}
		return value.Value{Kind: value.Number, Num: x}, nil
	case []any:
		v := value.Value{Kind: value.Array, Items: make([]value.Value, 0, len(x))}
		for _, item := range x {
			iv, err := fromGoYAML(item)
			if err != nil {
				return value.Value{}, err
			}
			v.Items = append(v.Items, iv)
		}
		return v, nil
	case map[any]any:
		v := value.Value{Kind: value.Object, Fields: make([]value.Field, 0, len(x))}
		for k, item := range x {
			key, err := mapKey(k)
			if err != nil {
				return value.Value{}, err
			}
			iv, err := fromGoYAML(item)
			if err != nil {
				return value.Value{}, err
			}
			v.Fields = append(v.Fields, value.Field{Key: key, Value: iv})
		}
		v.Fields = value.NormalizeFields(v.Fields)
		return v, nil
	}
	return value.Value{}, fmt.Errorf("unsupported YAML value of type %T", obj)
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
