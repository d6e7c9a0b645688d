package diff

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// WriteText writes the differences for people, grouped by package (in
// byte order; blobs of no package last), one line per change. A package
// added or removed as a whole is one line. Nothing is written when there
// is no difference.
func WriteText(w io.Writer, r *Result) error {
	oldM, _ := model.New(r.old, model.Options{})
	newM, _ := model.New(r.new, model.Options{})
	groups := map[string]*pkgChanges{}
	get := func(name string) *pkgChanges {
		g := groups[name]
		if g == nil {
			g = &pkgChanges{name: name, old: oldM.Packages[name], new: newM.Packages[name]}
			groups[name] = g
		}
		return g
	}
	for _, o := range r.Added {
		g := get(o.group())
		g.added = append(g.added, o)
	}
	for _, o := range r.Removed {
		g := get(o.group())
		g.removed = append(g.removed, o)
	}
	for _, o := range r.Changed {
		g := get(o.group())
		g.changed = append(g.changed, o)
	}
	names := slices.Sorted(maps.Keys(groups))
	if len(names) > 0 && names[0] == "" {
		names = append(names[1:], "")
	}
	bw := bufio.NewWriter(w)
	for _, name := range names {
		for _, line := range groups[name].lines() {
			bw.WriteString(line)
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// pkgChanges collects the differences of one package.
type pkgChanges struct {
	name                    string
	old, new                *model.Package // nil where the package is not defined
	added, removed, changed []Object
}

func (g *pkgChanges) lines() []string {
	if g.name == "" {
		out := []string{"(objects of no package)"}
		return append(out, otherLines(g)...)
	}
	switch {
	case g.old == nil && g.new != nil && hasPackage(g.added):
		return []string{fmt.Sprintf("%s: added (%s)", g.name, summary(g.new))}
	case g.new == nil && g.old != nil && hasPackage(g.removed):
		return []string{fmt.Sprintf("%s: removed (%s)", g.name, summary(g.old))}
	}
	out := []string{g.name + ":"}
	add := func(format string, args ...any) { out = append(out, "  "+fmt.Sprintf(format, args...)) }
	for _, o := range g.changed {
		if o.Schema == declcfg.SchemaPackage {
			add("package: changed (%s)", strings.Join(o.Fields, ", "))
		}
	}
	if g.old != nil && g.new != nil && g.old.Decl != nil && g.new.Decl != nil && g.old.Decl.DefaultChannel != g.new.Decl.DefaultChannel {
		add("default channel: %s -> %s", orNone(g.old.Decl.DefaultChannel), orNone(g.new.Decl.DefaultChannel))
	}
	for _, o := range g.added {
		if o.Schema == declcfg.SchemaChannel {
			add("channel %s: added (head %s)", o.Name, headOf(g.new, o.Name))
		}
	}
	for _, o := range g.removed {
		if o.Schema == declcfg.SchemaChannel {
			add("channel %s: removed", o.Name)
		}
	}
	for _, o := range g.changed {
		if o.Schema == declcfg.SchemaChannel {
			out = append(out, g.channelLines(o)...)
		}
	}
	for _, list := range []struct {
		objs []Object
		what string
	}{{g.added, "added"}, {g.removed, "removed"}} {
		for _, o := range list.objs {
			if o.Schema == declcfg.SchemaBundle {
				add("bundle %s: %s", o.Name, list.what)
			}
		}
	}
	for _, o := range g.changed {
		if o.Schema == declcfg.SchemaBundle {
			add("bundle %s: changed (%s)", o.Name, strings.Join(o.Fields, ", "))
		}
	}
	out = append(out, g.deprecationLines()...)
	out = append(out, otherLines(g)...)
	return out
}

func hasPackage(objs []Object) bool {
	return slices.ContainsFunc(objs, func(o Object) bool { return o.Schema == declcfg.SchemaPackage })
}

func summary(p *model.Package) string {
	s := fmt.Sprintf("%d %s, %d %s", len(p.Channels), plural(len(p.Channels), "channel"), len(p.Bundles), plural(len(p.Bundles), "bundle"))
	if p.Decl != nil && p.Decl.DefaultChannel != "" {
		s += ", default channel " + p.Decl.DefaultChannel
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// headOf names a channel's head by its version (its name if it has
// none).
func headOf(p *model.Package, channel string) string {
	if p == nil || p.Channels[channel] == nil {
		return "(none)"
	}
	heads := p.Channels[channel].Heads()
	switch len(heads) {
	case 0:
		return "(none)"
	case 1:
		if b := p.Bundles[heads[0]]; b != nil {
			if v, err := b.Version(); err == nil {
				return v.String()
			}
		}
		return heads[0]
	}
	return "(several: " + strings.Join(heads, ", ") + ")"
}

// channelLines describes a changed channel: its head, the bundles added
// to and removed from it, entries whose edges changed, other fields.
func (g *pkgChanges) channelLines(o Object) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, "  "+fmt.Sprintf(format, args...)) }
	var oc, nc *model.Channel
	if g.old != nil && g.new != nil {
		oc, nc = g.old.Channels[o.Name], g.new.Channels[o.Name]
	}
	if oc == nil || nc == nil {
		return []string{fmt.Sprintf("  channel %s: changed (%s)", o.Name, strings.Join(o.Fields, ", "))}
	}
	if before, after := headOf(g.old, o.Name), headOf(g.new, o.Name); before != after {
		add("channel head %s: %s -> %s", o.Name, before, after)
	}
	for _, e := range nc.Decl.Entries {
		if oc.Entry(e.Name) == nil {
			add("channel %s: added %s", o.Name, e.Name)
		}
	}
	for _, e := range oc.Decl.Entries {
		if nc.Entry(e.Name) == nil {
			add("channel %s: removed %s", o.Name, e.Name)
		}
	}
	for _, e := range nc.Decl.Entries {
		if before := oc.Entry(e.Name); before != nil {
			if fields := entryChanges(before, &e); len(fields) > 0 {
				add("channel %s: entry %s changed (%s)", o.Name, e.Name, strings.Join(fields, ", "))
			}
		}
	}
	var others []string
	for _, f := range o.Fields {
		if f != "entries" {
			others = append(others, f)
		}
	}
	if len(others) > 0 {
		add("channel %s: changed (%s)", o.Name, strings.Join(others, ", "))
	}
	return out
}

func entryChanges(a, b *declcfg.ChannelEntry) []string {
	var out []string
	if a.Replaces != b.Replaces {
		out = append(out, "replaces")
	}
	if !slices.Equal(a.Skips, b.Skips) {
		out = append(out, "skips")
	}
	if a.SkipRange != b.SkipRange {
		out = append(out, "skipRange")
	}
	return out
}

// deprecationLines lists what became deprecated (or got a new message)
// and what no longer is.
func (g *pkgChanges) deprecationLines() []string {
	before, after := deprecations(g.old), deprecations(g.new)
	var out []string
	for _, k := range slices.SortedFunc(maps.Keys(after), refCompare) {
		if msg, ok := before[k]; !ok || msg != after[k] {
			out = append(out, fmt.Sprintf("  deprecated %s: %q", refString(k), after[k]))
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(before), refCompare) {
		if _, ok := after[k]; !ok {
			out = append(out, fmt.Sprintf("  no longer deprecated: %s", refString(k)))
		}
	}
	return out
}

func deprecations(p *model.Package) map[declcfg.PackageScopedReference]string {
	out := map[declcfg.PackageScopedReference]string{}
	if p == nil || p.Deprecation == nil {
		return out
	}
	for _, e := range p.Deprecation.Entries {
		ref := e.Reference
		if ref.Schema == declcfg.SchemaPackage {
			ref.Name = ""
		}
		out[ref] = e.Message
	}
	return out
}

func refCompare(a, b declcfg.PackageScopedReference) int {
	if c := schemaRank(a.Schema) - schemaRank(b.Schema); c != 0 {
		return c
	}
	return strings.Compare(a.Schema+"\x00"+a.Name, b.Schema+"\x00"+b.Name)
}

func refString(r declcfg.PackageScopedReference) string {
	switch r.Schema {
	case declcfg.SchemaPackage:
		return "package"
	case declcfg.SchemaChannel:
		return "channel " + r.Name
	case declcfg.SchemaBundle:
		return "bundle " + r.Name
	}
	return r.Schema + " " + r.Name
}

// otherLines lists blobs of other schemas.
func otherLines(g *pkgChanges) []string {
	var out []string
	line := func(o Object, what string) {
		name := o.Schema
		if o.Name != "" {
			name += " " + o.Name
		}
		out = append(out, fmt.Sprintf("  %s: %s", name, what))
	}
	isOther := func(o Object) bool { return schemaRank(o.Schema) == 3 }
	for _, o := range g.added {
		if isOther(o) {
			line(o, "added")
		}
	}
	for _, o := range g.removed {
		if isOther(o) {
			line(o, "removed")
		}
	}
	for _, o := range g.changed {
		if isOther(o) {
			line(o, "changed ("+strings.Join(o.Fields, ", ")+")")
		}
	}
	return out
}
