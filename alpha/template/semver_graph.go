package template

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
)

// archetype is a semver template's channel kind, in increasing stability.
type archetype int

const (
	candidate archetype = iota
	fast
	stable
	numArchetypes
)

func (a archetype) String() string {
	switch a {
	case candidate:
		return "candidate"
	case fast:
		return "fast"
	}
	return "stable"
}

// stream is a kind of generated channel; major channels sort before minor
// ones when edges are made, and an unset stream ranks lowest.
type stream int

const (
	noStream stream = iota
	majorStream
	minorStream
)

// channelName is upstream's name for the channel of a version:
// candidate-v1 (major) or candidate-v1.2 (minor).
func channelName(a archetype, s stream, v semver.Version) string {
	if s == majorStream {
		return fmt.Sprintf("%s-v%d", a, v.Major)
	}
	return fmt.Sprintf("%s-v%d.%d", a, v.Major, v.Minor)
}

// placement is one bundle's entry in one generated channel.
type placement struct {
	arch    archetype
	stream  stream
	channel *declcfg.Channel
	entry   int // index in channel.Entries
	member  semverMember
}

// generated is what a semver template generates besides the bundles.
type generated struct {
	channels       []declcfg.Channel // sorted by name
	defaultChannel string
	heads          map[string]*semverMember // channel name -> last entry
}

// defaultHead is the last bundle of the default channel, nil if there is
// no default channel.
func (g *generated) defaultHead() *semverMember { return g.heads[g.defaultChannel] }

// generateChannels places every archetype's bundles, in ascending version
// order, into the major and/or minor channels of their versions, links
// them as upstream does (see link) and picks the default channel.
func generateChannels(pkg string, t *semverTemplate, members [numArchetypes][]semverMember, perChannel bool) *generated {
	byName := map[string]*declcfg.Channel{}
	var order []*declcfg.Channel
	var placed []placement
	var best defaultCandidate
	var streams []stream
	if t.major {
		streams = append(streams, majorStream)
	}
	if t.minor {
		streams = append(streams, minorStream)
	}
	g := &generated{heads: map[string]*semverMember{}}
	for a := range numArchetypes {
		sorted := slices.Clone(members[a])
		slices.SortFunc(sorted, func(x, y semverMember) int { return x.version.Compare(y.version) })
		for i := range sorted {
			m := &sorted[i]
			for _, s := range streams {
				name := channelName(a, s, m.version)
				ch := byName[name]
				if ch == nil {
					ch = &declcfg.Channel{Schema: declcfg.SchemaChannel, Name: name, Package: pkg, Entries: []declcfg.ChannelEntry{}}
					byName[name] = ch
					order = append(order, ch)
					// Upstream scores a channel once, when the bundle
					// that creates it (its lowest version) is placed.
					if c := (defaultCandidate{arch: a, stream: s, version: m.version, name: name}); c.beats(best, t.preference) {
						best = c
					}
				}
				ch.Entries = append(ch.Entries, declcfg.ChannelEntry{Name: m.name})
				placed = append(placed, placement{arch: a, stream: s, channel: ch, entry: len(ch.Entries) - 1, member: *m})
				g.heads[name] = m
			}
		}
	}
	if perChannel {
		linkPerChannel(placed)
	} else {
		link(placed)
	}
	for _, ch := range order {
		g.channels = append(g.channels, *ch)
	}
	slices.SortFunc(g.channels, func(x, y declcfg.Channel) int { return cmp.Compare(x.Name, y.Name) })
	g.defaultChannel = best.name
	return g
}

// link sets the upgrade edges exactly as upstream does. Placements are
// walked in (archetype, stream, version) order; at the end of each run of
// one major.minor (within an archetype, stream and major version) the
// run's last bundle replaces the previous run's last bundle and skips
// every bundle of the earlier runs and of its own run. So the newest
// bundle of each minor version skips all lower versions of its major
// version and replaces the newest bundle of the minor version before it,
// which in a minor channel is a bundle of another channel (valid: the
// tail of a channel may replace a bundle outside it).
func link(placed []placement) {
	slices.SortFunc(placed, func(x, y placement) int {
		return cmp.Or(cmp.Compare(x.arch, y.arch), cmp.Compare(x.stream, y.stream), x.member.version.Compare(y.member.version))
	})
	prevMax := ""
	skips := map[string]bool{}
	finish := func(p placement) {
		e := &p.channel.Entries[p.entry]
		e.Replaces = prevMax
		var list []string
		for name := range skips {
			if name != e.Replaces {
				list = append(list, name)
			}
		}
		if len(list) > 0 {
			slices.Sort(list)
			e.Skips = list
		}
	}
	for i := 1; i < len(placed); i++ {
		prev, cur := placed[i-1], placed[i]
		pv, cv := prev.member.version, cur.member.version
		sameMajor := prev.arch == cur.arch && prev.stream == cur.stream && pv.Major == cv.Major
		sameMinor := sameMajor && pv.Minor == cv.Minor
		if !sameMinor {
			finish(prev)
		}
		if !sameMajor {
			skips = map[string]bool{}
			prevMax = ""
			continue
		}
		if !sameMinor {
			prevMax = prev.member.name
		}
		skips[prev.member.name] = true
	}
	if n := len(placed); n > 1 {
		prev, last := placed[n-2], placed[n-1]
		if prev.arch == last.arch && prev.stream == last.stream && prev.member.version.Major == last.member.version.Major {
			finish(last)
		}
	}
}

// defaultCandidate is a channel scored for the default channel.
type defaultCandidate struct {
	arch    archetype
	stream  stream
	version semver.Version
	name    string
}

// beats is upstream's preference: the more stable archetype, then the
// higher version, then the preferred stream, then minor over major. Any
// channel beats no channel (o without a name). Upstream starts from a
// candidate-archetype channel of version 0.0.0 instead, which a channel
// made by a pre-release of 0.0.0 cannot beat: a package of such bundles
// only gets an empty default channel there, an invalid catalog.
func (c defaultCandidate) beats(o defaultCandidate, pref stream) bool {
	if o.name == "" {
		return true
	}
	if c.arch != o.arch {
		return c.arch > o.arch
	}
	if d := c.version.Compare(o.version); d != 0 {
		return d > 0
	}
	if c.stream != o.stream {
		switch pref {
		case c.stream:
			return true
		case o.stream:
			return false
		}
		return c.stream > o.stream
	}
	return false
}

// linkPerChannel sets the upgrade edges as opm did before link's
// linking across channels: each channel on its own, its entries in
// ascending version order. Walking the runs of one major.minor, the last
// bundle of each run replaces the last bundle of the run before it in the
// channel and skips it, then skips every other bundle of its own run, in
// version order. When the channel's last two bundles differ in minor
// version, the last one replaces the one before it.
func linkPerChannel(placed []placement) {
	var channels []*declcfg.Channel
	versions := map[string]semver.Version{}
	seen := map[*declcfg.Channel]bool{}
	for _, p := range placed {
		versions[p.member.name] = p.member.version
		if !seen[p.channel] {
			seen[p.channel] = true
			channels = append(channels, p.channel)
		}
	}
	for _, ch := range channels {
		entries := ch.Entries
		version := func(i int) semver.Version { return versions[entries[i].Name] }
		sameMinor := func(i, j int) bool {
			return version(i).Major == version(j).Major && version(i).Minor == version(j).Minor
		}
		prevMax := ""
		for start := 0; start < len(entries); {
			end := start + 1
			for end < len(entries) && sameMinor(end, start) {
				end++
			}
			last := &entries[end-1]
			if prevMax != "" {
				last.Skips = append(last.Skips, prevMax)
				last.Replaces = prevMax
			}
			prevMax = last.Name
			for i := start; i < end-1; i++ {
				last.Skips = append(last.Skips, entries[i].Name)
			}
			start = end
		}
		if n := len(entries); n > 1 && version(n-1).Minor != version(n-2).Minor {
			entries[n-1].Replaces = entries[n-2].Name
		}
	}
}
