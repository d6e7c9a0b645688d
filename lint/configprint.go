package lint

import (
	"bytes"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/lint/config"
)

// EffectiveConfig writes the configuration a run with these options
// over paths uses, as YAML that .opm-lint.yaml accepts: where it was
// read, the target, the profile, every rule's setting (after --rule and
// --disable) and the ignores.
func EffectiveConfig(opts Options, paths ...string) ([]byte, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	c := opts.Config
	if c == nil {
		c = &config.Config{}
	}
	profile := c.Profile.Resolve(paths)
	running, err := selectRules(opts.Rules, opts.Disable, opts.Config, profile)
	if err != nil {
		return nil, err
	}
	target := opts.Target
	if target == "" {
		target = config.TargetOLMv0
	}
	from := "no " + config.FileName + " found: the defaults"
	if c.File != "" {
		from = "read from " + c.File
	}
	doc := mapping()
	doc.HeadComment = "effective lint configuration, " + from
	add(doc, "target", scalar(string(target)))
	p := scalar(string(profile))
	if c.Profile == config.ProfileAuto {
		p.LineComment = "the default for these paths: community for operator directories (operators/<pkg>/ with ci.yaml), none elsewhere"
	}
	add(doc, "profile", p)
	rules := mapping()
	for _, r := range table {
		v := scalar("on")
		set := c.Rules[r.ID]
		switch {
		case !ruleIn(running, r.ID):
			v = scalar("off")
		case set.Severity != "":
			v = scalar(string(set.Severity))
		default:
			v.LineComment = defaultSeverityNote(r, target)
		}
		if r.Check != "" {
			v.LineComment = strings.TrimPrefix(v.LineComment+"; "+r.Check, "; ")
		}
		add(rules, r.ID, v)
	}
	add(doc, "rules", rules)
	ignores := &yaml.Node{Kind: yaml.SequenceNode}
	for _, ig := range c.Ignores {
		e := mapping()
		for _, kv := range [][2]string{{"rule", ig.Rule}, {"package", ig.Package}, {"bundle", ig.Bundle}, {"reason", ig.Reason}} {
			if kv[1] != "" {
				add(e, kv[0], scalar(kv[1]))
			}
		}
		ignores.Content = append(ignores.Content, e)
	}
	add(doc, "ignore", ignores)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("writing the configuration: %w", err)
	}
	return b.Bytes(), enc.Close()
}

// defaultSeverityNote says what severity a rule's findings have for the
// target when the configuration gives none.
func defaultSeverityNote(r Rule, t config.Target) string {
	switch {
	case r.ID == ruleCRDUpgrade && t != config.TargetOLMv1:
		return "error when a stored version or the scope changes; warning for what only OLM v1 refuses"
	case r.ID == ruleOLMv1 && t == config.TargetOLMv1:
		return "error"
	case r.ID == ruleOpenShiftRange:
		return "error; warning for a range written in a tolerated but undocumented way"
	case r.ID == ruleDangling:
		return "warning for replaces; info for skips"
	case r.ID == ruleOSDKOperatorHub || r.ID == ruleOSDKOperatorFramework:
		return "error or warning, as operator-sdk's output"
	}
	return string(r.Severity)
}

// ruleIn reports whether rules has the rule id.
func ruleIn(rules []Rule, id string) bool {
	for _, r := range rules {
		if r.ID == id {
			return true
		}
	}
	return false
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }

// add appends a key and its value to a mapping.
func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, scalar(key), v)
}
