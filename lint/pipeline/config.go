package pipeline

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
)

// The repository's own configuration files that the pipeline's checks
// read (an operator's ci.yaml, a bundle's release-config.yaml, the
// repository's config.yaml) are read as the pipeline reads them, with
// PyYAML's safe_load (YAML 1.1: yes, no, on and off are booleans), into a
// value tree whose nodes keep their lines.

// Config is one such file, read.
type Config struct {
	// File names the file in findings.
	File string
	// V is its document; nil when the file does not exist or cannot be
	// read.
	V *value.Value
	// Err says why the file cannot be read as YAML, if it cannot.
	Err error
}

// ReadConfig reads the configuration file at path; file names it in
// findings. A file that does not exist is a Config without a document.
func ReadConfig(path, file string) *Config {
	t := &Config{File: file}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return t
	}
	if err == nil {
		t.V, err = parseConfigTree(data)
	}
	if err != nil {
		t.V, t.Err = nil, fmt.Errorf("%s: %w", file, err)
	}
	return t
}

// get follows object members from the document's root (nil when the file
// is missing or a member is).
func (t *Config) get(keys ...string) *value.Value {
	if t == nil || t.V == nil {
		return nil
	}
	return t.V.At(keys...)
}

// parseConfigTree parses a YAML document with lines. Several documents
// are refused, as safe_load refuses them.
func parseConfigTree(data []byte) (*value.Value, error) {
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &value.Value{Kind: value.Null}, nil
		}
		e := fbcyaml.SyntaxError(data, 1, err)
		return nil, fmt.Errorf("line %d: not valid YAML: %s", e.Line, e.Message)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, fmt.Errorf("line %d: the file holds more than one YAML document", next.Line)
	}
	if len(doc.Content) == 0 {
		return &value.Value{Kind: value.Null}, nil
	}
	v := treeOf(doc.Content[0], 0)
	return &v, nil
}

// treeOf converts a node; aliases are followed up to a depth that stops
// a cycle.
func treeOf(n *yaml.Node, depth int) value.Value {
	v := value.Value{Line: int32(n.Line), Col: int32(n.Column)}
	if depth > 100 {
		return v
	}
	switch n.Kind {
	case yaml.AliasNode:
		out := treeOf(n.Alias, depth+1)
		out.Line, out.Col = v.Line, v.Col
		return out
	case yaml.MappingNode:
		v.Kind = value.Object
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			v.Fields = append(v.Fields, value.Field{Key: k.Value, Value: treeOf(n.Content[i+1], depth+1)})
		}
		v.Fields = value.NormalizeFields(v.Fields)
	case yaml.SequenceNode:
		v.Kind = value.Array
		for _, it := range n.Content {
			v.Items = append(v.Items, treeOf(it, depth+1))
		}
	case yaml.ScalarNode:
		scalarOf(n, &v)
	}
	return v
}

// scalarOf resolves a scalar as YAML 1.1 (PyYAML) does.
func scalarOf(n *yaml.Node, v *value.Value) {
	v.Kind, v.Str = value.String, n.Value
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return
	}
	switch n.Tag {
	case "!!null":
		v.Kind, v.Str = value.Null, ""
	case "!!bool", "!!str":
		if b, ok := yaml11Bool(n.Value); ok {
			v.Kind, v.Bool, v.Str = value.Bool, b, ""
		}
	case "!!int", "!!float":
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil && !math.IsInf(f, 0) {
			v.Kind, v.Num = value.Number, f
			return
		}
		if i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			v.Kind, v.Num = value.Number, float64(i)
		}
	}
}

// yaml11Bool reads YAML 1.1's booleans.
func yaml11Bool(s string) (b, ok bool) {
	switch s {
	case "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return true, true
	case "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return false, true
	}
	return false, false
}
