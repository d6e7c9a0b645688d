// Package graph draws upgrade graphs as mermaid flowcharts: those of a
// catalog's channels as upstream opm draws them for
// `opm alpha render-graph` and `opm alpha render-template -o mermaid`,
// and a channel's change, before and after, for lint's pull-request
// summary (WriteChange).
//
// The drawing is upstream's, byte for byte, for a single package. Where
// upstream mixes packages up (reference §15), the drawing keeps them
// apart: bundle versions, channel and bundle deprecations are looked up
// in the package that is drawn, every deprecated package is styled, and
// links are numbered in the order the flowchart defines them, which is
// what mermaid's linkStyle counts. See WriteMermaidCatalog.
package graph

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// Options says what is drawn.
type Options struct {
	// MinimumEdge names a bundle: only its package is drawn, the bundle
	// itself without edges, and of the other entries only the edges from
	// bundles at or above its version (see filter.entries). Empty draws
	// everything.
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

// SkipRangeWarning says that an entry's skipRange does not parse: it is
// drawn without skipRange edges.
type SkipRangeWarning struct {
	Package, Bundle, SkipRange string
	Err                        error
}

// Error is upstream's text; upstream prints it on stderr after
// "warning: ".
func (w *SkipRangeWarning) Error() string {
	return fmt.Sprintf("ignoring invalid SkipRange for package/edge %q/%q: %v", w.Package, w.Bundle, w.Err)
}

func (w *SkipRangeWarning) Unwrap() error { return w.Err }

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

// WriteMermaid draws the catalog cfg as WriteMermaidCatalog does. cfg is
// indexed as render-graph needs, without validation: objects of packages
// that have no olm.package blob are drawn too. What the index cannot hold
// (a second channel or bundle of the same name in a package, a second
// olm.deprecations blob) is left out and returned among the warnings.
func WriteMermaid(w io.Writer, cfg *declcfg.DeclarativeConfig, opts Options) (warnings []error, err error) {
	c, problems := model.New(cfg, model.Options{PackageExists: func(string) bool { return true }})
	problems.Sort()
	for _, p := range problems {
		warnings = append(warnings, p)
	}
	more, err := WriteMermaidCatalog(w, c, opts)
	return append(warnings, more...), err
}

// WriteMermaidCatalog writes the upgrade graph of every channel of c to w
// as a mermaid flowchart: packages by name, each with its channels by
// name; in a channel, entries by descending version (entries of equal
// versions in upstream's order), each as a node line followed by its
// edges (skips, then one skipRange edge for every entry of the channel,
// in entry order, whose version is in the range, then replaces); then
// the style lines of deprecated packages and channels, the class lines
// of decorated bundles and the linkStyle line.
//
// Nothing is checked beyond what drawing needs, and nothing is written
// unless everything can be: every bundle must have exactly one
// olm.package property with a semantic version (the error lists every
// bundle that has not), and Options.MinimumEdge must name a bundle.
// Entries whose skipRange does not parse are drawn without skipRange
// edges and returned as *SkipRangeWarning, in drawing order.
func WriteMermaidCatalog(w io.Writer, c *model.Catalog, opts Options) (warnings []error, err error) {
	vs, err := readVersions(c)
	if err != nil {
		return nil, err
	}
	f, err := newFilter(c, vs, opts)
	if err != nil {
		return nil, err
	}
	// Nothing fails from here on: the drawing streams to w.
	d := &drawing{opts: opts, versions: vs, out: bufio.NewWriterSize(w, 64<<10), classes: map[string][]string{}}
	d.out.WriteString(header)
	for _, name := range c.PackageNames() {
		if p := c.Packages[name]; f.drawsPackage(p) {
			d.pkg(p, f)
		}
	}
	d.finish()
	return d.warnings, d.out.Flush()
}

// drawing accumulates the flowchart.
type drawing struct {
	opts     Options
	versions versions

	out                *bufio.Writer
	deprecatedPackages []string
	deprecatedChannels []string            // channel ids
	classes            map[string][]string // bundle node ids by class
	link               int                 // the number of the next edge
	skippedLinks       []int
	warnings           []error
}

// pkg draws the package's channels that the filter keeps, if any.
func (d *drawing) pkg(p *model.Package, f *filter) {
	drawn := false
	for _, name := range p.ChannelNames() {
		ch := p.Channels[name]
		entries, ok := f.entries(ch)
		if !ok {
			continue
		}
		if !drawn {
			fmt.Fprintf(d.out, "  %%%% package %q\n", p.Name)
			fmt.Fprintf(d.out, "  subgraph %q\n", p.Name)
			drawn = true
		}
		d.channel(ch, entries)
	}
	if !drawn {
		return
	}
	d.out.WriteString("  end\n")
	if _, ok := p.Deprecated(declcfg.SchemaPackage, ""); ok {
		d.deprecatedPackages = append(d.deprecatedPackages, p.Name)
	}
}

// channel draws one channel with the entries the filter kept.
func (d *drawing) channel(ch *model.Channel, entries []declcfg.ChannelEntry) {
	b, p := d.out, ch.Package
	id := p.Name + "-" + ch.Name
	fmt.Fprintf(b, "    %%%% channel %q\n", ch.Name)
	fmt.Fprintf(b, "    subgraph %s[%q]\n", id, ch.Name)
	if _, ok := p.Deprecated(declcfg.SchemaChannel, ch.Name); ok {
		d.deprecatedChannels = append(d.deprecatedChannels, id)
	}
	version := func(name string) semver.Version { return d.versions.of(p, name) }

	// Newest first. Upstream's sort is not stable; the same sort of the
	// same entries puts entries of equal versions in upstream's order.
	sorted := make([]*declcfg.ChannelEntry, len(entries))
	for i := range entries {
		sorted[i] = &entries[i]
	}
	sort.Slice(sorted, func(i, j int) bool { return version(sorted[i].Name).GT(version(sorted[j].Name)) })

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
		_, deprecated := p.Deprecated(declcfg.SchemaBundle, e.Name)
		switch {
		case deprecated && skipped[e.Name]:
			d.classes[classDeprecatedSkipped] = append(d.classes[classDeprecatedSkipped], node)
		case deprecated:
			d.classes[classDeprecated] = append(d.classes[classDeprecated], node)
		case skipped[e.Name]:
			d.classes[classSkipped] = append(d.classes[classSkipped], node)
		}
		for _, s := range e.Skips {
			edge(s, labelSkip, e, true)
		}
		if e.SkipRange != "" {
			r, err := semver.ParseRange(e.SkipRange)
			if err != nil {
				d.warnings = append(d.warnings, &SkipRangeWarning{Package: p.Name, Bundle: e.Name, SkipRange: e.SkipRange, Err: err})
			} else {
				label := `"` + skipRangeLabel(e.SkipRange) + `"`
				for _, in := range entries {
					if r(version(in.Name)) {
						edge(in.Name, label, e, false)
					}
				}
			}
		}
		if e.Replaces != "" {
			edge(e.Replaces, labelReplace, e, false)
		}
	}
	b.WriteString("    end\n")
}

// finish writes the style, class and linkStyle lines.
func (d *drawing) finish() {
	for _, name := range d.deprecatedPackages {
		fmt.Fprintf(d.out, "style %s fill:#989695\n", name)
	}
	for _, id := range d.deprecatedChannels {
		fmt.Fprintf(d.out, "style %s fill:#DCD0FF\n", id)
	}
	for _, class := range []string{classDeprecated, classDeprecatedSkipped, classSkipped} {
		if ids := d.classes[class]; len(ids) > 0 {
			slices.Sort(ids)
			fmt.Fprintf(d.out, "class %s %s\n", strings.Join(ids, ","), class)
		}
	}
	if len(d.skippedLinks) > 0 {
		links := make([]string, len(d.skippedLinks))
		for i, l := range d.skippedLinks {
			links[i] = strconv.Itoa(l)
		}
		fmt.Fprintf(d.out, "linkStyle %s stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;\n", strings.Join(links, ","))
	}
}
