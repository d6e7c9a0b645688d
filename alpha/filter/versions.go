package filter

import (
	"fmt"

	"github.com/fbcat/opm/model"
)

// inRange selects the entries of a channel for a version range, as
// oc-mirror does, so that the result still has one head and reaches all
// it keeps:
//
//   - walk the replaces chain from the channel's head;
//   - count, for each bundle on it, the bundles in the range that it or
//     the chain below it reaches (itself and the entries it skips), each
//     counted once, at the lowest bundle that reaches it;
//   - the new head is the lowest bundle on the chain that reaches all of
//     them, the new tail the first one below it that reaches none;
//   - keep the chain from the head down to the tail (bundles outside the
//     range in between included: upgrades pass through them) and the
//     entries in the range that they skip.
//
// Bundles without a valid version are never in the range. The result is
// empty when no bundle the chain reaches is in the range.
func inRange(p *model.Package, ch *model.Channel, r Range) (map[string]bool, error) {
	head, err := ch.Head()
	if err != nil {
		return nil, err
	}
	var chain []string
	onChain := map[string]bool{}
	for name := head; name != "" && ch.Entry(name) != nil && !onChain[name]; name = ch.Entry(name).Replaces {
		chain = append(chain, name)
		onChain[name] = true
	}
	matches := func(name string) bool {
		b := p.Bundles[name]
		if b == nil || ch.Entry(name) == nil {
			return false
		}
		v, err := b.Version()
		return err == nil && r.Contains(v.Version)
	}
	counted := map[string]bool{}
	counts := make([]int, len(chain)+1)
	for i := len(chain) - 1; i >= 0; i-- {
		n := counts[i+1]
		for _, name := range append([]string{chain[i]}, ch.Entry(chain[i]).Skips...) {
			if !counted[name] && matches(name) {
				counted[name] = true
				n++
			}
		}
		counts[i] = n
	}
	if counts[0] == 0 {
		return nil, nil
	}
	top := 0
	for top+1 < len(chain) && counts[top+1] == counts[0] {
		top++
	}
	keep := map[string]bool{}
	for i := top; i < len(chain) && counts[i] > 0; i++ {
		keep[chain[i]] = true
		for _, s := range ch.Entry(chain[i]).Skips {
			if matches(s) {
				keep[s] = true
			}
		}
	}
	return keep, nil
}

// versionSpan says which versions a channel has, for messages.
func versionSpan(p *model.Package, ch *model.Channel) string {
	var lo, hi *model.Version
	for _, e := range ch.Decl.Entries {
		b := p.Bundles[e.Name]
		if b == nil {
			continue
		}
		v, err := b.Version()
		if err != nil {
			continue
		}
		if lo == nil || v.Compare(*lo) < 0 {
			lo = &v
		}
		if hi == nil || v.Compare(*hi) > 0 {
			hi = &v
		}
	}
	switch {
	case lo == nil:
		return ""
	case lo.Compare(*hi) == 0:
		return fmt.Sprintf(" (the channel has %s)", lo)
	}
	return fmt.Sprintf(" (the channel has %s to %s)", lo, hi)
}
