package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/position"
)

// FileName is the repository configuration lint looks for, from the
// linted path up to the repository root.
const FileName = ".opm-lint.yaml"

// Find looks for .opm-lint.yaml in start (a directory, or the
// directory of a file) and each directory above it, up to the repository
// root (the directory holding .git or operators/) or the file system's
// root. It returns "" when there is none.
func Find(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		f := filepath.Join(dir, FileName)
		if _, err := os.Stat(f); err == nil {
			return f, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(dir)
		if isRepoRoot(dir) || parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// isRepoRoot reports whether dir is the root of a repository: it holds
// .git (a directory, or a worktree's file) or operators/.
func isRepoRoot(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return true
	}
	st, err := os.Stat(filepath.Join(dir, "operators"))
	return err == nil && st.IsDir()
}

// Resolve reads the configuration file given (--config), else the
// one Find finds from the first path that exists (else the working
// directory); with neither, it is the defaults.
func Resolve(file string, paths, rules []string) (*Config, error) {
	if file == "" {
		start := "."
		for _, p := range paths {
			if _, err := os.Stat(p); err == nil {
				start = p
				break
			}
		}
		var err error
		if file, err = Find(start); err != nil || file == "" {
			return &Config{}, err
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("lint configuration: %w", err)
	}
	return Parse(file, data, rules)
}

// Parse reads a lint configuration; file names it in errors, rules are
// the IDs of the rules it may name.
func Parse(file string, data []byte, rules []string) (*Config, error) {
	c := &Config{File: file, Rules: map[string]RuleSetting{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(file, data, err)
	}
	if len(doc.Content) == 0 {
		return c, nil // empty: the defaults
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, position.At(file, root.Line, "the configuration is a mapping of target, profile, rules and ignore")
	}
	p := &parser{file: file, c: c, known: rules}
	return c, p.each(root, "the configuration", func(key, val *yaml.Node) error {
		switch key.Value {
		case "target":
			return p.target(val)
		case "profile":
			return p.profile(val)
		case "rules":
			return p.rules(val)
		case "ignore":
			return p.ignores(val)
		}
		return p.fail(key, "unknown key %q: the keys are target, profile, rules and ignore", key.Value)
	})
}

// yamlError places a YAML syntax error of the configuration data at the
// line upstream's parser names (see fbcyaml.SyntaxError).
func yamlError(file string, data []byte, err error) error {
	return position.Within(file, "not valid YAML", fbcyaml.SyntaxError(data, 1, err))
}

// parser reads the parts of a configuration.
type parser struct {
	file  string
	c     *Config
	known []string
}

func (p *parser) fail(n *yaml.Node, format string, args ...any) error {
	return position.At(p.file, n.Line, format, args...)
}

// each calls f on each key and value of a mapping; what names it.
func (p *parser) each(n *yaml.Node, what string, f func(key, val *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.fail(n, "%s must be a mapping", what)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := n.Content[i]
		if seen[key.Value] {
			return p.fail(key, "%q is given twice", key.Value)
		}
		seen[key.Value] = true
		if err := f(key, n.Content[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// rule refuses a rule ID that names no rule.
func (p *parser) rule(n *yaml.Node, id string) error {
	if slices.Contains(p.known, id) {
		return nil
	}
	return p.fail(n, "unknown rule %q: the rules are %s", id, strings.Join(p.known, ", "))
}

// scalar is a node's text; other nodes are an error.
func (p *parser) scalar(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", p.fail(n, "%s must be a single value", what)
	}
	return n.Value, nil
}

func (p *parser) target(n *yaml.Node) error {
	s, err := p.scalar(n, "target")
	if err != nil {
		return err
	}
	if p.c.Target, err = ParseTarget(s); err != nil {
		return p.fail(n, "target: %v", err)
	}
	return nil
}

// profile reads the profile: community, certified, none or auto.
func (p *parser) profile(n *yaml.Node) error {
	s, err := p.scalar(n, "profile")
	if err != nil {
		return err
	}
	if p.c.Profile, err = ParseProfile(s); err != nil {
		return p.fail(n, "profile: %v", err)
	}
	return nil
}

// rules reads "rule: off|on|error|warning|info" lines.
func (p *parser) rules(n *yaml.Node) error {
	return p.each(n, "rules", func(key, val *yaml.Node) error {
		if err := p.rule(key, key.Value); err != nil {
			return err
		}
		s, err := p.scalar(val, "rules."+key.Value)
		if err != nil {
			return err
		}
		set := RuleSetting{Line: key.Line}
		switch s {
		case "off", "false":
			set.Off = true
		case "on", "true":
		default:
			if set.Severity, err = finding.ParseSeverity(s); err != nil {
				return p.fail(val, "rules.%s: %q: use off, on, error, warning or info", key.Value, s)
			}
		}
		p.c.Rules[key.Value] = set
		return nil
	})
}

// ignores reads the ignore list: entries of rule, package, bundle and the
// reason, which is required.
func (p *parser) ignores(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return p.fail(n, "ignore must be a list of entries with rule, package, bundle and reason")
	}
	for _, e := range n.Content {
		ig := Ignore{Line: e.Line}
		err := p.each(e, "an ignore entry", func(key, val *yaml.Node) error {
			s, err := p.scalar(val, "ignore "+key.Value)
			if err != nil {
				return err
			}
			switch key.Value {
			case "rule":
				if err := p.rule(val, s); err != nil {
					return err
				}
				ig.Rule = s
			case "package":
				ig.Package = s
			case "bundle":
				ig.Bundle = s
			case "reason":
				ig.Reason = strings.TrimSpace(s)
			default:
				return p.fail(key, "unknown key %q in an ignore entry: the keys are rule, package, bundle and reason", key.Value)
			}
			return nil
		})
		switch {
		case err != nil:
			return err
		case ig.Reason == "":
			return p.fail(e, "an ignore entry needs a reason: say why the findings it covers are accepted")
		case ig.Rule == "" && ig.Package == "" && ig.Bundle == "":
			return p.fail(e, "an ignore entry needs a rule, a package or a bundle: one with none would ignore everything")
		}
		p.c.Ignores = append(p.c.Ignores, ig)
	}
	return nil
}
