package repoconfig

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/internal/suggest"
	"github.com/fbcat/opm/position"
)

// ReleaseFacts are what a release-config.yaml is checked against, as
// plain data: the operator's templates as its ci.yaml maps them, the
// channels each has, and the names of the package's bundles. The catalog
// verbs and lint check with the same facts alike.
type ReleaseFacts struct {
	Operator  string          // the operator directory, operators/<pkg>, for messages
	Package   string          // the package its catalogs hold ("" when none does yet), for messages
	CIFile    string          // its ci.yaml, for messages
	Templates []TemplateFacts // the templates ci.yaml maps, in its order
	Bundles   []string        // the names of the package's bundles
}

// TemplateFacts is one template ci.yaml maps.
type TemplateFacts struct {
	Name     string   // its file name in catalog-templates/
	Type     string   // TypeBasic or TypeSemver
	Channels []string // the channels a basic template has (none when it does not exist yet)
}

// ErrNearMissChannel marks a problem of a channel no template has whose
// name is a near miss of a channel one has, or of a conventional channel
// name: a slip, unless the channel is made on purpose (a release's
// NewChannel lifts it).
var ErrNearMissChannel = errors.New("a new channel whose name is a near miss of another")

// ConventionalChannels are the channel names catalogs use by convention.
// A new channel a near miss of one of them is taken for a slip of it, in
// a package's first release as in any other. The streams of semver
// templates (Candidate, Fast, Stable) are conventional names too, never
// slips, but are not offered for basic templates' channels.
var ConventionalChannels = []string{"alpha", "beta", "stable", "fast", "candidate", "preview"}

// NearMissChannel returns the channels a channel name that none of
// existing is was likely meant as (suggest.Near): the existing channels
// it is a near miss of (Fast beside fast), else the conventional names
// (lapha for alpha). An existing name is no slip, nor a conventional one
// no existing channel is near (nil).
func NearMissChannel(name string, existing []string) []string {
	if name == "" || slices.Contains(existing, name) {
		return nil
	}
	if near := suggest.Near(name, existing); len(near) > 0 {
		return near
	}
	if slices.Contains(ConventionalChannels, name) || slices.Contains(template.SemverStreams, name) {
		return nil
	}
	return suggest.Near(name, ConventionalChannels)
}

// SemverStream is the stream a channel of release-config.yaml (or a
// command line) names in a semver template, matched ignoring case, or "".
func SemverStream(name string) string {
	for _, s := range template.SemverStreams {
		if strings.EqualFold(s, name) {
			return s
		}
	}
	return ""
}

// StreamHint is " (did you mean <stream>?)" for a channel name that is a
// near miss of a semver template's stream, or "".
func StreamHint(name string) string {
	if near := suggest.Near(name, template.SemverStreams); len(near) > 0 {
		return fmt.Sprintf(" (did you mean %s?)", suggest.Or(near))
	}
	return ""
}

// Check returns every problem of the release-config.yaml, sorted by line:
// the mistakes reading found (see ParseReleaseConfig), and those against
// the facts, each at its key's line with what was likely meant:
//   - a template ci.yaml does not map (did you mean);
//   - a channel of a semver template that is none of its streams;
//   - a channel no basic template has that is a near miss of one it has
//     or of a conventional name (NearMissChannel), marked
//     ErrNearMissChannel, and a default channel that is none of the
//     template's channels;
//   - replaces naming a bundle the package does not have;
//   - a template listed twice.
//
// Warnings (Problem.Warning) do not stop a release: skips naming a bundle
// the package does not have that is a near miss of one it has (skipping
// a bundle removed long ago is allowed), and replaces, skips, skipRange or
// defaultChannel given for a semver template, which computes them.
func (rc *ReleaseConfig) Check(facts ReleaseFacts) []*position.Error {
	problems := slices.Clone(rc.read)
	add := func(t ReleaseTarget, key string, near []string, format string, args ...any) *Problem {
		p := &Problem{Msg: fmt.Sprintf(format, args...), Key: key, Near: near}
		problems = append(problems, problemAt(rc.File, t.LineOf(key), p))
		return p
	}
	seen := map[string]int{}
	for _, t := range rc.Targets {
		if t.TemplateFile == "" {
			continue // said when read
		}
		if at, dup := seen[t.TemplateFile]; dup {
			add(t, "template_name", nil, "template %q is listed twice (also at line %d): give each template once, with all its channels", t.TemplateFile, at)
			continue
		}
		seen[t.TemplateFile] = t.LineOf("template_name")
		tf := facts.template(t.TemplateFile)
		if tf == nil {
			u := suggest.NewUnknown("template", t.TemplateFile, nil, facts.templateNames(), fmt.Sprintf("%s maps no template %q in fbc.catalog_mapping", facts.CIFile, t.TemplateFile))
			add(t, "template_name", u.Near, "%s", u.Error())
			continue
		}
		if tf.Type == TypeSemver {
			checkSemver(t, add)
		} else {
			checkBasic(t, tf, facts, add)
		}
	}
	slices.SortStableFunc(problems, func(a, b *position.Error) int { return a.Line - b.Line })
	return problems
}

// adder records a problem of a target at a key.
type adder func(t ReleaseTarget, key string, near []string, format string, args ...any) *Problem

func checkSemver(t ReleaseTarget, add adder) {
	for _, ch := range t.Channels {
		if SemverStream(ch) == "" {
			add(t, "channels", suggest.Near(ch, template.SemverStreams), "%q is no channel of semver template %s%s: a semver template releases into %s, and generates its channels from versions", ch, t.TemplateFile, StreamHint(ch), strings.Join(template.SemverStreams, ", "))
		}
	}
	var unused []string
	for _, key := range []string{"replaces", "skips", "skipRange", "defaultChannel"} {
		if t.has(key) {
			unused = append(unused, key)
		}
	}
	if len(unused) > 0 {
		add(t, unused[0], nil, "%s is a semver template: it computes edges and the default channel from versions, so %s %s not used", t.TemplateFile, suggest.Or(unused), isAre(len(unused))).Warning = true
	}
}

func checkBasic(t ReleaseTarget, tf *TemplateFacts, facts ReleaseFacts, add adder) {
	for _, ch := range t.Channels {
		if near := NearMissChannel(ch, tf.Channels); len(near) > 0 {
			add(t, "channels", near, "channel %q is in no template of %s: did you mean %s?", ch, facts.Operator, suggest.Or(near)).Err = ErrNearMissChannel
		}
	}
	if d := t.DefaultChannel; d != "" && !slices.Contains(t.Channels, d) && !slices.Contains(tf.Channels, d) {
		if near := NearMissChannel(d, append(slices.Clone(tf.Channels), t.Channels...)); len(near) > 0 {
			add(t, "defaultChannel", near, "default channel %q is none of the channels of %s: did you mean %s?", d, t.TemplateFile, suggest.Or(near))
		} else {
			add(t, "defaultChannel", nil, "default channel %q is none of the channels of %s (%s): a package's default channel must have a bundle; list it under channels too", d, t.TemplateFile, suggest.List(append(slices.Clone(tf.Channels), t.Channels...)))
		}
	}
	if r := t.Replaces; r != "" && !slices.Contains(facts.Bundles, r) {
		near := suggest.Versioned(r, facts.Bundles, suggest.NameVersion)
		hint := ""
		if len(near) > 0 {
			hint = fmt.Sprintf(": did you mean %s?", suggest.Or(near))
		}
		of := facts.Operator
		if facts.Package != "" {
			of = fmt.Sprintf("package %q", facts.Package)
		}
		add(t, "replaces", near, "replaces %q names no bundle of %s%s", r, of, hint)
	}
	for _, s := range t.Skips {
		if slices.Contains(facts.Bundles, s) {
			continue
		}
		if near := suggest.Near(s, facts.Bundles); len(near) > 0 {
			add(t, "skips", near, "skips names %s, which no catalog of %s holds: did you mean %s? (written as given)", s, facts.Operator, suggest.Or(near)).Warning = true
		}
	}
}

// has reports whether the target sets one of replaces, skips, skipRange
// and defaultChannel.
func (t ReleaseTarget) has(key string) bool {
	switch key {
	case "replaces":
		return t.Replaces != ""
	case "skips":
		return len(t.Skips) > 0
	case "skipRange":
		return t.SkipRange != ""
	}
	return t.DefaultChannel != ""
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func (f ReleaseFacts) template(name string) *TemplateFacts {
	for i := range f.Templates {
		if f.Templates[i].Name == name {
			return &f.Templates[i]
		}
	}
	return nil
}

func (f ReleaseFacts) templateNames() []string {
	var out []string
	for _, t := range f.Templates {
		out = append(out, t.Name)
	}
	return out
}
