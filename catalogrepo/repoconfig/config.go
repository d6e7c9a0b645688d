// Package repoconfig reads a catalog repository's configuration files:
// an operator's ci.yaml (which templates render which catalogs) and a
// bundle's release-config.yaml (the channels a release goes to), each
// mistake at its key's line.
package repoconfig

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo/request"
	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/position"
)

// The template types ci.yaml names, as the community pipeline spells them.
const (
	TypeBasic  = "olm.template.basic"
	TypeSemver = "olm.semver"
)

// Mapping is one entry of ci.yaml's fbc.catalog_mapping: a template and
// the catalogs rendered from it.
type Mapping struct {
	TemplateFile string   // the template's file name in catalog-templates/
	Type         string   // TypeBasic or TypeSemver
	Catalogs     []string // catalog names, such as v4.17
	Line         int      // where the entry is in ci.yaml
}

// Kind is the template format of the mapping's type.
func (m Mapping) Kind() template.Kind {
	if m.Type == TypeSemver {
		return template.Semver
	}
	return template.Basic
}

// CIConfig is what ci.yaml says about file-based catalogs.
type CIConfig struct {
	File     string // the file, as named in errors
	Mappings []Mapping
}

// Problem is what a mistake in one of a catalog repository's
// configuration files (an operator's ci.yaml, a bundle's
// release-config.yaml) is beyond its place. Each mistake is a
// *position.Error (the file, the line when it has one; without a file, a
// value given otherwise, such as a command line's flag, said alone)
// whose cause is a Problem (see ProblemOf).
type Problem struct {
	Msg string
	Err error // ErrNotFBC, ErrNearMissChannel, ErrUnknownKey, ErrUnknownEntryKey, an error the caller wraps, or nil
	// Key is the key the problem is at, when it is at one (see
	// ReleaseConfig.Check); Near are the names it was likely meant as.
	Key  string
	Near []string
	// Warning says the problem does not stop a release: the release is
	// made as written, and the problem noted.
	Warning bool
}

// Error is the message, without the place.
func (p *Problem) Error() string { return p.Msg }

// Unwrap is the problem's kind, if it has one.
func (p *Problem) Unwrap() error { return p.Err }

// Refused reports that a mistake in the repository's files refuses the
// request (as catalogrepo's Refusal.Refused).
func (p *Problem) Refused() bool { return true }

// ProblemOf is the Problem of err, a mistake in a configuration file; nil
// when err is none.
func ProblemOf(err error) *Problem {
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	return nil
}

// ErrNotFBC marks a ci.yaml that does not maintain its operator as a
// file-based catalog (no fbc section, or fbc.enabled not true).
var ErrNotFBC = errors.New("not maintained as a file-based catalog")

// ErrorAt is a mistake in file at line (0: the file as a whole).
func ErrorAt(file string, line int, format string, args ...any) *position.Error {
	return problemAt(file, line, &Problem{Msg: fmt.Sprintf(format, args...)})
}

// problemAt is the mistake p in file at line.
func problemAt(file string, line int, p *Problem) *position.Error {
	return &position.Error{File: file, Line: line, Err: p}
}

func configErr(file string, n *yaml.Node, format string, args ...any) *position.Error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return ErrorAt(file, line, format, args...)
}

// parseYAMLRoot parses a configuration file's first document, which must
// be a mapping.
func parseYAMLRoot(file string, data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		e := fbcyaml.SyntaxError(data, 1, err)
		return nil, problemAt(file, e.Line, &Problem{Msg: "invalid YAML: " + e.Message, Err: e})
	}
	if len(doc.Content) == 0 {
		return nil, ErrorAt(file, 0, "the file is empty")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, configErr(file, root, "expected a mapping at the top of the file")
	}
	return root, nil
}

// member returns the value of key in mapping m, or nil.
func member(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// keyNode returns the key node of key in mapping m, or nil.
func keyNode(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

// scalar reads a string scalar; a missing or null node is "".
func scalar(file string, n *yaml.Node, what string) (string, error) {
	if n == nil || n.Tag == "!!null" {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", configErr(file, n, "%s must be a string", what)
	}
	return n.Value, nil
}

// stringList reads a list of strings (a single string counts as a list
// of one, as the pipeline's own tooling accepts it nowhere: it is refused).
func stringList(file string, n *yaml.Node, what string) ([]string, error) {
	if n == nil || n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, configErr(file, n, "%s must be a list", what)
	}
	var out []string
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" || item.Value == "" {
			return nil, configErr(file, item, "%s must list non-empty strings", what)
		}
		out = append(out, item.Value)
	}
	return out, nil
}

// PlainName checks that a name from a configuration file can be a file
// or directory name: no separators, not "." or "..".
func PlainName(file string, n *yaml.Node, what, name string) error {
	if name == "" {
		return configErr(file, n, "%s is empty", what)
	}
	if !request.IsFileName(name) {
		return configErr(file, n, "%s %q must be a plain file name", what, name)
	}
	return nil
}

// ParseCIConfig reads the fbc section of an operator's ci.yaml.
func ParseCIConfig(file string, data []byte) (*CIConfig, error) {
	root, err := parseYAMLRoot(file, data)
	if err != nil {
		return nil, err
	}
	fbc := member(root, "fbc")
	if fbc == nil || fbc.Kind != yaml.MappingNode {
		e := configErr(file, root, "no fbc section: this operator is not maintained as a file-based catalog (add fbc: {enabled: true, catalog_mapping: [...]})")
		ProblemOf(e).Err = ErrNotFBC
		return nil, e
	}
	enabled := member(fbc, "enabled")
	if enabled == nil || enabled.Value != "true" {
		e := configErr(file, fbc, "fbc.enabled is not true: this operator is not maintained as a file-based catalog")
		ProblemOf(e).Err = ErrNotFBC
		return nil, e
	}
	list := member(fbc, "catalog_mapping")
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		return nil, configErr(file, orNode(keyNode(fbc, "catalog_mapping"), fbc), "fbc.catalog_mapping lists no templates: map each catalog template to its catalogs (template_name, type, catalog_names)")
	}
	cfg := &CIConfig{File: file}
	templates, catalogs := map[string]int{}, map[string]int{}
	for _, item := range list.Content {
		m, err := parseMapping(file, item)
		if err != nil {
			return nil, err
		}
		if at, dup := templates[m.TemplateFile]; dup {
			return nil, configErr(file, orNode(keyNode(item, "template_name"), item), "template %q is mapped twice (also at line %d)", m.TemplateFile, at)
		}
		templates[m.TemplateFile] = m.Line
		for _, c := range m.Catalogs {
			if at, dup := catalogs[c]; dup {
				return nil, configErr(file, item, "catalog %q is mapped to two templates (also at line %d): a catalog is rendered from one template", c, at)
			}
			catalogs[c] = m.Line
		}
		cfg.Mappings = append(cfg.Mappings, m)
	}
	return cfg, nil
}

func parseMapping(file string, item *yaml.Node) (Mapping, error) {
	if item.Kind != yaml.MappingNode {
		return Mapping{}, configErr(file, item, "a catalog_mapping entry must be a mapping (template_name, type, catalog_names)")
	}
	m := Mapping{Line: item.Line}
	var err error
	name := orNode(member(item, "template_name"), item)
	if m.TemplateFile, err = scalar(file, member(item, "template_name"), "template_name"); err != nil {
		return m, err
	}
	if err := PlainName(file, name, "template_name", m.TemplateFile); err != nil {
		return m, err
	}
	typ := orNode(member(item, "type"), item)
	if m.Type, err = scalar(file, member(item, "type"), "type"); err != nil {
		return m, err
	}
	if m.Type != TypeBasic && m.Type != TypeSemver {
		return m, configErr(file, typ, "template %q has type %q: the types are %s and %s", m.TemplateFile, m.Type, TypeBasic, TypeSemver)
	}
	names := member(item, "catalog_names")
	if m.Catalogs, err = stringList(file, names, "catalog_names"); err != nil {
		return m, err
	}
	if len(m.Catalogs) == 0 {
		return m, configErr(file, orNode(keyNode(item, "catalog_names"), item), "template %q maps to no catalogs: list them in catalog_names (e.g. [v4.17, v4.18])", m.TemplateFile)
	}
	for _, c := range m.Catalogs {
		if err := PlainName(file, names, "catalog name", c); err != nil {
			return m, err
		}
	}
	return m, nil
}

// orNode is n, or else when n is missing.
func orNode(n, otherwise *yaml.Node) *yaml.Node {
	if n != nil {
		return n
	}
	return otherwise
}

// TemplateFiles lists the file names of the mapped templates, in
// ci.yaml's order.
func (c *CIConfig) TemplateFiles() []string {
	var out []string
	for _, m := range c.Mappings {
		out = append(out, m.TemplateFile)
	}
	return out
}
