package repoconfig

import (
	"errors"
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/catalogrepo/request"
	"github.com/fbcat/opm/internal/suggest"
	"github.com/fbcat/opm/position"
)

// ReleaseTarget is one entry of a bundle's release-config.yaml: where in
// one template the bundle is released.
type ReleaseTarget struct {
	// TemplateFile is the template's file name in catalog-templates/.
	TemplateFile   string
	Channels       []string
	Replaces       string
	Skips          []string
	SkipRange      string
	DefaultChannel string
	Line           int            // the entry's line
	Lines          map[string]int // the line of each key the entry has
}

// LineOf is the line of a key of the entry, or the entry's line when it
// does not have the key (or was not read from a file).
func (t ReleaseTarget) LineOf(key string) int {
	if l, ok := t.Lines[key]; ok {
		return l
	}
	return t.Line
}

// ReleaseConfig is a bundle's release-config.yaml: the entries that
// read, and the problems reading found (see Check).
type ReleaseConfig struct {
	File    string // "" for targets given otherwise (a command line's flags)
	Targets []ReleaseTarget
	read    []*position.Error
}

// The keys of release-config.yaml, as the community pipeline's schema has
// them.
var (
	releaseKeys = []string{"catalog_templates", "merge"}
	targetKeys  = []string{"template_name", "channels", "defaultChannel", "replaces", "skips", "skipRange"}
)

// ParseReleaseConfig reads a release-config.yaml. It fails, with nil,
// only for a file that is not YAML or not a mapping; otherwise it returns
// the entries that read, and as its error the mistakes of the file's own
// (wrong types, bad values, unknown keys), each at its key's line, joined.
// Check reports those and the mistakes against the repository together.
func ParseReleaseConfig(file string, data []byte) (*ReleaseConfig, error) {
	root, err := parseYAMLRoot(file, data)
	if err != nil {
		return nil, err
	}
	rc := &ReleaseConfig{File: file}
	rc.unknownKeys(root, releaseKeys, "")
	if m := member(root, "merge"); m != nil && (m.Kind != yaml.ScalarNode || m.Tag != "!!bool") {
		rc.problem(m, "merge", "merge must be true or false (whether the release's pull request is merged by itself)")
	}
	list := member(root, "catalog_templates")
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		rc.problem(orNode(keyNode(root, "catalog_templates"), root), "catalog_templates", "catalog_templates lists no templates: give template_name and channels for each template to release into")
	}
	if list != nil && list.Kind == yaml.SequenceNode {
		for _, item := range list.Content {
			if t, ok := rc.parseTarget(item); ok {
				rc.Targets = append(rc.Targets, t)
			}
		}
	}
	return rc, rc.err()
}

// err joins the problems reading found (nil for none).
func (rc *ReleaseConfig) err() error {
	var errs []error
	for _, e := range rc.read {
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// problem records a mistake at node n, under key.
func (rc *ReleaseConfig) problem(n *yaml.Node, key, format string, args ...any) {
	e := configErr(rc.File, n, format, args...)
	ProblemOf(e).Key = key
	rc.read = append(rc.read, e)
}

// unknownKeys records each key of mapping m that is none of known, with
// the one it is likely a slip of ("replace" for replaces).
func (rc *ReleaseConfig) unknownKeys(m *yaml.Node, known []string, where string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if slices.Contains(known, k.Value) {
			continue
		}
		u := suggest.NewUnknown("key", k.Value, nil, known, fmt.Sprintf("unknown key %q%s", k.Value, where))
		p := &Problem{Msg: u.Error(), Key: k.Value, Near: u.Near, Err: ErrUnknownKey}
		if where != "" {
			p.Err = ErrUnknownEntryKey
		}
		rc.read = append(rc.read, problemAt(rc.File, k.Line, p))
	}
}

// ErrUnknownKey marks a key release-config.yaml does not have at its top
// level; ErrUnknownEntryKey one a catalog_templates entry does not have
// (replace for replaces), which the release pipeline's schema lets pass
// and its bot then ignores.
var (
	ErrUnknownKey      = errors.New("an unknown key")
	ErrUnknownEntryKey = errors.New("an unknown key in a catalog_templates entry")
)

// parseTarget reads an entry of catalog_templates; false when it is no
// mapping. Mistakes are recorded; the entry keeps what read.
func (rc *ReleaseConfig) parseTarget(item *yaml.Node) (ReleaseTarget, bool) {
	if item.Kind != yaml.MappingNode {
		rc.problem(item, "catalog_templates", "a catalog_templates entry must be a mapping (template_name, channels, ...)")
		return ReleaseTarget{}, false
	}
	t := ReleaseTarget{Line: item.Line, Lines: map[string]int{}}
	for i := 0; i+1 < len(item.Content); i += 2 {
		t.Lines[item.Content[i].Value] = item.Content[i].Line
	}
	rc.unknownKeys(item, targetKeys, " in a catalog_templates entry")
	record := func(key string, err error) {
		var e *position.Error
		if p := ProblemOf(err); p != nil && errors.As(err, &e) {
			p.Key = key
			rc.read = append(rc.read, e)
		}
	}
	fields := []struct {
		key string
		dst *string
	}{{"template_name", &t.TemplateFile}, {"replaces", &t.Replaces}, {"skipRange", &t.SkipRange}, {"defaultChannel", &t.DefaultChannel}}
	for _, f := range fields {
		v, err := scalar(rc.File, member(item, f.key), f.key)
		record(f.key, err)
		*f.dst = v
	}
	if err := PlainName(rc.File, orNode(member(item, "template_name"), item), "template_name", t.TemplateFile); err != nil {
		record("template_name", err)
		t.TemplateFile = ""
	}
	var err error
	t.Channels, err = stringList(rc.File, member(item, "channels"), "channels")
	record("channels", err)
	if err == nil && len(t.Channels) == 0 {
		rc.problem(orNode(keyNode(item, "channels"), item), "channels", "template %q: channels lists no channel to release into", t.TemplateFile)
	}
	t.Skips, err = stringList(rc.File, member(item, "skips"), "skips")
	record("skips", err)
	t.checkValues(rc, item)
	return t, true
}

// checkValues checks the target's values as the verbs check the same
// values given as flags (request.Values), each bad one at its key's line,
// before any catalog is read.
func (t ReleaseTarget) checkValues(rc *ReleaseConfig, item *yaml.Node) {
	checks := []struct {
		key   string
		check func(v *request.Values)
	}{
		{"channels", func(v *request.Values) { v.Channels("channels", t.Channels) }},
		{"replaces", func(v *request.Values) { v.Bundle("replaces", t.Replaces) }},
		{"skips", func(v *request.Values) { v.Bundles("skips", t.Skips) }},
		{"skipRange", func(v *request.Values) { v.SkipRange("skipRange", t.SkipRange) }},
		{"defaultChannel", func(v *request.Values) { v.Channel("defaultChannel", t.DefaultChannel) }},
	}
	for _, c := range checks {
		v := &request.Values{Request: "release-config.yaml"}
		c.check(v)
		for _, re := range v.Invalid() {
			rc.problem(orNode(keyNode(item, c.key), item), c.key, "%s: %s", c.key, re.Why)
		}
	}
}
