package author

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/internal/suggest"
)

// templateChannels lists the channels the package's basic templates
// have, in the templates' order, each once. Templates that do not parse
// are left out (editing them says why).
func (p *Package) templateChannels() []string {
	var out []string
	for _, t := range p.Templates {
		if t.Data == nil || t.Kind() == template.Semver {
			continue
		}
		d, err := openBasic(t)
		if err != nil {
			continue
		}
		for _, name := range d.channelNames() {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// nearMiss returns the existing channel that a channel name no template
// has is most likely a slip of: one differing only in case, or within an
// edit distance of 2 ignoring case, a swap of neighbours counting one
// (1 for names of under 4 characters). Names that
// differ only in their numbers (stable-v1.3 beside stable-v1.2) are
// versions, not slips. "" when there is none.
func nearMiss(name string, existing []string) string {
	for _, e := range existing {
		if strings.EqualFold(e, name) {
			return e
		}
	}
	best, bestDistance := "", 3
	for _, e := range existing {
		d := suggest.Distance(strings.ToLower(name), strings.ToLower(e))
		if versionsOnly(name) != versionsOnly(e) && 2*d <= len(e) && d < bestDistance {
			best, bestDistance = e, d
		}
	}
	return best
}

// versionsOnly is a channel name without its digits and dots: two names
// that are the same without them differ in the versions they name.
func versionsOnly(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || (r >= '0' && r <= '9') {
			return -1
		}
		return r
	}, name)
}

// channelCheck checks the channels a verb would put bundles in against
// the channels the package's templates have: a new name that is a near
// miss of an existing one is refused (unless allowNew: made on purpose),
// and a genuinely new one is noted, once.
type channelCheck struct {
	existing []string
	allowNew bool
	pkg      string
	noted    []string
}

func (p *Package) channelCheck(allowNew bool) *channelCheck {
	return &channelCheck{existing: p.templateChannels(), allowNew: allowNew, pkg: p.Dir}
}

// check returns the error of a near miss (nil when the name is fine: an
// existing channel, or a new one, then noted).
func (c *channelCheck) check(name string) *NeedError {
	if name == "" || slices.Contains(c.existing, name) {
		return nil
	}
	if near := nearMiss(name, c.existing); near != "" && !c.allowNew {
		return &NeedError{Need: NeedNewChannel, Problem: fmt.Sprintf("channel %q is in no template of %s: did you mean %s?", name, c.pkg, near)}
	}
	if !slices.Contains(c.noted, name) {
		c.noted = append(c.noted, name)
	}
	return nil
}

// notes says which channels are new.
func (c *channelCheck) notes() []string {
	var out []string
	for _, name := range c.noted {
		out = append(out, fmt.Sprintf("channel %s is new: no template of %s had it", name, c.pkg))
	}
	return out
}

// streamHint is ": did you mean <stream>?" for a channel name that is a
// near miss of a semver stream, or "".
func streamHint(name string) string {
	if near := nearMiss(name, semverStreams); near != "" {
		return fmt.Sprintf(" (did you mean %s?)", near)
	}
	return ""
}
