// Package graph draws the upgrade graphs of a catalog's channels as a
// mermaid flowchart, byte for byte as upstream opm draws them for
// `opm alpha render-graph` and `opm alpha render-template -o mermaid`.
//
// The drawing follows upstream's rules, quirks included, because users
// commit and diff its output: bundle versions are looked up by bundle name
// across packages (the first bundle of a name wins, releases are ignored),
// channel and bundle deprecations are matched by name in every package,
// only the last deprecated package drawn is styled, and links are numbered
// across all channels in channel-name order. See WriteMermaid.
package graph

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
)

// Options says what WriteMermaid draws.
type Options struct {
	// MinimumEdge names a bundle: only its package is drawn (every package
	// if no channel lists it), the bundle itself without edges, and of
	// the other entries only the edges from bundles at or above its
	// version (see filter.entries). Empty draws everything.
	MinimumEdge string
	// Package, if set, draws only that package's channels.
	Package string
	// V0Semantics marks what OLM v0 would not take: bundles skipped by a
	// newer one get the class "skipped" (or "deprecatedskipped"), and
	// edges into skipped bundles are styled by a linkStyle line.
	// `render-graph` leaves it off unless --draw-v0-semantics is given;
	// `render-template -o mermaid` turns it on.
	V0Semantics bool
}

// Warning is a problem that does not stop the drawing: a skipRange that
// does not parse draws no edges.
type Warning struct {
	Package, Bundle, SkipRange string
	Err                        error
}

// String is upstream's text; upstream prints it on stderr as
// "warning: " + String() + "\n".
func (w Warning) String() string {
	return fmt.Sprintf("ignoring invalid SkipRange for package/edge %q/%q: %v", w.Package, w.Bundle, w.Err)
}

// The decoration classes of bundles, in the order their lines are written.
const (
	classDeprecated        = "deprecated"
	classDeprecatedSkipped = "deprecatedskipped"
	classSkipped           = "skipped"
)

const header = `graph LR
  classDef deprecated fill:#E8960F
  classDef skipped stroke:#FF0000,stroke-width:4px
  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px
`

// WriteMermaid writes the upgrade graph of every channel in cfg to w as
// a mermaid flowchart, as upstream does: packages by name, each with its
// channels by name; in a channel, entries by descending version, each as
// a node line followed by its edges (skips, then one skipRange edge for
// every entry of the channel, in entry order, whose version is in the
// range, then replaces); then the style lines of deprecated packages and
// channels, the class lines of decorated bundles and the linkStyle line.
//
// Nothing is checked beyond what drawing needs, and nothing is written
// unless everything can be: every bundle must have exactly one olm.package
// property with a semantic version, and Options.MinimumEdge must name a
// bundle. WriteMermaid prints nothing itself; the warnings are returned,
// in the order upstream prints them. cfg is not modified.
func WriteMermaid(w io.Writer, cfg *declcfg.DeclarativeConfig, opts Options) ([]Warning, error) {
	vs, err := versions(cfg)
	if err != nil {
		return nil, err
	}
	f := &filter{opts: opts, versions: vs}
	if opts.MinimumEdge != "" {
		v, ok := vs[opts.MinimumEdge]
		if !ok {
			return nil, fmt.Errorf("unknown minimum edge name: %q: no bundle has that name", opts.MinimumEdge)
		}
		f.floor = v
	}
	channels := sortedChannels(cfg)
	if opts.MinimumEdge != "" {
		f.floorPackage = packageListing(channels, opts.MinimumEdge)
	}
	d := &drawing{
		opts:       opts,
		versions:   vs,
		deprecated: deprecations(cfg),
		packages:   map[string]*bytes.Buffer{},
		classes:    map[string][]string{},
	}
	for _, c := range channels {
		if entries, ok := f.entries(c); ok {
			d.channel(c, entries)
		}
	}
	var out bytes.Buffer
	d.finish(&out)
	_, err = w.Write(out.Bytes())
	return d.warnings, err
}

// sortedChannels orders the channels by name only, with upstream's sort
// (not stable), so that channels of the same name in different packages,
// which share the link numbering, come in upstream's order for the same
// input.
func sortedChannels(cfg *declcfg.DeclarativeConfig) []*declcfg.Channel {
	out := make([]*declcfg.Channel, len(cfg.Channels))
	for i := range cfg.Channels {
		out[i] = &cfg.Channels[i]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// packageListing returns the package of the first channel with an entry
// of that name, "" if none has one.
func packageListing(channels []*declcfg.Channel, bundle string) string {
	for _, c := range channels {
		for _, e := range c.Entries {
			if e.Name == bundle {
				return c.Package
			}
		}
	}
	return ""
}

// deprecated holds what olm.deprecations blobs deprecate: packages by
// package name, channels and bundles by name alone, whatever their
// package (upstream's matching).
type deprecated struct {
	packages, channels, bundles map[string]bool
}

func deprecations(cfg *declcfg.DeclarativeConfig) deprecated {
	d := deprecated{packages: map[string]bool{}, channels: map[string]bool{}, bundles: map[string]bool{}}
	for _, dep := range cfg.Deprecations {
		for _, e := range dep.Entries {
			switch e.Reference.Schema {
			case declcfg.SchemaPackage:
				d.packages[dep.Package] = true
			case declcfg.SchemaChannel:
				d.channels[e.Reference.Name] = true
			case declcfg.SchemaBundle:
				d.bundles[e.Reference.Name] = true
			}
		}
	}
	return d
}

// drawing accumulates the graph, channel by channel in drawing order.
type drawing struct {
	opts       Options
	versions   map[string]semver.Version
	deprecated deprecated

	packages map[string]*bytes.Buffer // the channels drawn, by package
	// deprecatedPackage is the last deprecated package drawn: upstream
	// styles only that one.
	deprecatedPackage  string
	deprecatedChannels []string            // channel ids
	classes            map[string][]string // bundle node ids by class
	link               int                 // the number of the next edge
	skippedLinks       []int
	warnings           []Warning
}

// channel draws one channel with the entries the filter kept.
func (d *drawing) channel(c *declcfg.Channel, entries []declcfg.ChannelEntry) {
	b := d.packages[c.Package]
	if b == nil {
		b = &bytes.Buffer{}
		d.packages[c.Package] = b
	}
	id := c.Package + "-" + c.Name
	fmt.Fprintf(b, "    %%%% channel %q\n", c.Name)
	fmt.Fprintf(b, "    subgraph %s[%q]\n", id, c.Name)
	if d.deprecated.packages[c.Package] {
		d.deprecatedPackage = c.Package
	}
	if d.deprecated.channels[c.Name] {
		d.deprecatedChannels = append(d.deprecatedChannels, id)
	}

	// Newest first, with upstream's (unstable) sort, so that entries of
	// equal versions come in upstream's order.
	sorted := make([]*declcfg.ChannelEntry, len(entries))
	for i := range entries {
		sorted[i] = &entries[i]
	}
	sort.Slice(sorted, func(i, j int) bool { return d.versions[sorted[i].Name].GT(d.versions[sorted[j].Name]) })

	// skipped holds the bundles of this channel that some entry skips,
	// as far as the entries drawn so far tell.
	skipped := map[string]bool{}
	// edge writes an edge into the entry e and numbers it. With v0
	// semantics, an edge is styled when it is a skip of a bundle already
	// skipped (a skip of a bundle not yet skipped marks it instead) or an
	// edge into an entry that is skipped.
	edge := func(from, label string, e *declcfg.ChannelEntry, skip bool) {
		fmt.Fprintf(b, "      %s-%s[%q]-- %s --> %s-%s[%q]\n", id, from, from, label, id, e.Name, e.Name)
		if d.opts.V0Semantics {
			marked := from
			if !skip {
				marked = e.Name
			}
			switch {
			case skipped[marked]:
				d.skippedLinks = append(d.skippedLinks, d.link)
			case skip:
				skipped[marked] = true
			}
		}
		d.link++
	}
	for _, e := range sorted {
		node := id + "-" + e.Name
		fmt.Fprintf(b, "      %s[%q]\n", node, e.Name)
		switch dep := d.deprecated.bundles[e.Name]; {
		case dep && skipped[e.Name]:
			d.classes[classDeprecatedSkipped] = append(d.classes[classDeprecatedSkipped], node)
		case dep:
			d.classes[classDeprecated] = append(d.classes[classDeprecated], node)
		case skipped[e.Name]:
			d.classes[classSkipped] = append(d.classes[classSkipped], node)
		}
		for _, s := range e.Skips {
			edge(s, "skip", e, true)
		}
		if e.SkipRange != "" {
			r, err := semver.ParseRange(e.SkipRange)
			if err != nil {
				d.warnings = append(d.warnings, Warning{Package: c.Package, Bundle: e.Name, SkipRange: e.SkipRange, Err: err})
			} else {
				label := `"skipRange(` + e.SkipRange + `)"`
				for _, in := range entries {
					if r(d.versions[in.Name]) {
						edge(in.Name, label, e, false)
					}
				}
			}
		}
		if e.Replaces != "" {
			edge(e.Replaces, "replace", e, false)
		}
	}
	b.WriteString("    end\n")
}

// finish writes the whole graph.
func (d *drawing) finish(out *bytes.Buffer) {
	out.WriteString(header)
	for _, name := range slices.Sorted(maps.Keys(d.packages)) {
		fmt.Fprintf(out, "  %%%% package %q\n", name)
		fmt.Fprintf(out, "  subgraph %q\n", name)
		out.Write(d.packages[name].Bytes())
		out.WriteString("  end\n")
	}
	if d.deprecatedPackage != "" {
		fmt.Fprintf(out, "style %s fill:#989695\n", d.deprecatedPackage)
	}
	for _, id := range d.deprecatedChannels {
		fmt.Fprintf(out, "style %s fill:#DCD0FF\n", id)
	}
	for _, class := range []string{classDeprecated, classDeprecatedSkipped, classSkipped} {
		if ids := d.classes[class]; len(ids) > 0 {
			slices.Sort(ids)
			fmt.Fprintf(out, "class %s %s\n", strings.Join(ids, ","), class)
		}
	}
	if len(d.skippedLinks) > 0 {
		links := make([]string, len(d.skippedLinks))
		for i, l := range d.skippedLinks {
			links[i] = strconv.Itoa(l)
		}
		fmt.Fprintf(out, "linkStyle %s stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;\n", strings.Join(links, ","))
	}
}
