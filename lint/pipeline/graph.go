package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/internal/labels"
)

// The update graph of an operator not using FBC, as the pipeline builds
// it from the bundle directories: a channel holds the bundles whose
// annotations list it, ordered by version (the last is its head), and a
// bundle is replaced by those whose CSV replaces or skips it, or whose
// olm.skipRange holds its version, in the same channel (replaces-mode);
// in semver-mode each bundle of a channel is replaced by the next.

// channelsOf are the channels a bundle's annotations list.
func channelsOf(b *Bundle) []string {
	v := b.Annotations[labels.Channels]
	if v == nil {
		return nil
	}
	var out []string
	for _, c := range strings.Split(pyStr(v), ",") {
		out = addName(out, strings.Trim(c, pyWhitespace))
	}
	return out
}

// defaultChannelOf is a bundle's default channel annotation, if any.
func defaultChannelOf(b *Bundle) (string, bool) {
	v := b.Annotations[labels.DefaultChannel]
	if v == nil {
		return "", false
	}
	return strings.Trim(pyStr(v), pyWhitespace), true
}

// csvVersion is the version in a bundle's CSV name: what follows its
// first dot, without a leading v.
func csvVersion(b *Bundle) string {
	_, v, _ := strings.Cut(b.Name, ".")
	return strings.TrimLeft(v, "v")
}

// compareBundles orders bundles as the pipeline does: by operator name,
// then by CSV version (semantic versions, else as text).
func compareBundles(a, b *Bundle) int {
	an, _ := csvOperatorName(a.Name)
	bn, _ := csvOperatorName(b.Name)
	if an != bn {
		return strings.Compare(an, bn)
	}
	av, aerr := semver.Parse(csvVersion(a))
	bv, berr := semver.Parse(csvVersion(b))
	if aerr == nil && berr == nil {
		return av.Compare(bv)
	}
	return strings.Compare(csvVersion(a), csvVersion(b))
}

// channelBundles are the bundles of a channel, ordered: the last is its
// head.
func (o *Operator) channelBundles(channel string) []*Bundle {
	var out []*Bundle
	for _, b := range o.Bundles {
		if slices.Contains(channelsOf(b), channel) {
			out = append(out, b)
		}
	}
	slices.SortStableFunc(out, compareBundles)
	return out
}

// graph is a channel's update graph: each bundle to those that replace
// it.
type graph map[*Bundle][]*Bundle

func (g graph) add(from, to *Bundle) {
	if !slices.Contains(g[from], to) {
		g[from] = append(g[from], to)
	}
}

// updateGraphOf builds a channel's graph; an error is the pipeline's
// message for a graph it cannot build.
func (o *Operator) updateGraphOf(channel string) (graph, error) {
	bundles := o.channelBundles(channel)
	g := graph{}
	mode := "replaces-mode"
	if v := o.CI.get("updateGraph"); v != nil {
		mode = pyStr(v)
	}
	switch mode {
	case "semver-mode":
		for i := 0; i+1 < len(bundles); i++ {
			g.add(bundles[i], bundles[i+1])
		}
		return g, nil
	case "replaces-mode":
		return g, o.replacesGraph(channel, bundles, g)
	}
	return nil, fmt.Errorf("Operator(%s): unsupported updateGraph value: %s", o.Name, mode)
}

// replacesGraph adds the edges of skipRange, replaces and skips.
func (o *Operator) replacesGraph(channel string, bundles []*Bundle, g graph) error {
	byVersion := map[string]*Bundle{}
	for _, b := range bundles {
		byVersion[csvVersion(b)] = b
	}
	for _, b := range bundles {
		sr := b.csv("metadata", "annotations", "olm.skipRange")
		if !truthy(sr) {
			continue
		}
		r, err := semver.ParseRange(pyStr(sr))
		if err != nil {
			continue // the pipeline ignores a skipRange it cannot read
		}
		for _, c := range bundles {
			if v, err := semver.Parse(csvVersion(c)); err == nil && r(v) {
				g.add(c, b)
			}
		}
	}
	for _, b := range bundles {
		var previous []string
		if skips := b.csv("spec", "skips"); skips != nil {
			for i := range skips.Items {
				previous = append(previous, pyStr(&skips.Items[i]))
			}
		}
		if r := b.csv("spec", "replaces"); r != nil && r.Kind != 0 {
			previous = append(previous, pyStr(r))
		}
		for _, name := range previous {
			_, v, ok := strings.Cut(name, ".")
			if !ok {
				return fmt.Errorf("%s has invalid 'replaces' field: '%s'", o.ref(b), name)
			}
			if replaced := byVersion[strings.TrimLeft(v, "v")]; replaced != nil {
				g.add(replaced, b)
			}
		}
	}
	return nil
}

// channelsOfOperator are the channels of every bundle, and the default
// channels, sorted.
func (o *Operator) channelsOfOperator() []string {
	var out []string
	for _, b := range o.Bundles {
		for _, c := range channelsOf(b) {
			out = addName(out, c)
		}
		if d, ok := defaultChannelOf(b); ok {
			out = addName(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// refs names bundles as the pipeline prints a set of them.
func (o *Operator) refs(bs []*Bundle) string {
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = o.ref(b)
	}
	return "{" + strings.Join(names, ", ") + "}"
}
