package author

import (
	"fmt"
	"slices"

	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/internal/suggest"
	"github.com/fbcat/opm/option"
)

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
	return &channelCheck{existing: p.TemplateChannels(), allowNew: allowNew, pkg: p.Dir}
}

// check returns the error of a near miss of an existing or a conventional
// channel (repoconfig.NearMissChannel, the rule release-config.yaml is
// checked by), nil when the name is fine: an existing channel, or a new
// one, then noted.
func (c *channelCheck) check(name string) *option.Error {
	if near := repoconfig.NearMissChannel(name, c.existing); len(near) > 0 && !c.allowNew {
		return needNewChannel(fmt.Sprintf("channel %q is in no template of %s: did you mean %s?", name, c.pkg, suggest.Or(near)), "author.PromoteRequest.NewChannel")
	}
	c.note(name)
	return nil
}

// note notes a channel as new if no template has it.
func (c *channelCheck) note(name string) {
	if name != "" && !slices.Contains(c.existing, name) && !slices.Contains(c.noted, name) {
		c.noted = append(c.noted, name)
	}
}

// notes says which channels are new.
func (c *channelCheck) notes() []string {
	var out []string
	for _, name := range c.noted {
		out = append(out, fmt.Sprintf("channel %s is new: no template of %s had it", name, c.pkg))
	}
	return out
}
