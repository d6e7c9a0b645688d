package filter

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"
	yaml "go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/position"
)

// The ImageSetConfiguration versions and kind read by ParseConfig.
const (
	APIVersionV2Alpha1 = "mirror.openshift.io/v2alpha1"
	APIVersionV1Alpha2 = "mirror.openshift.io/v1alpha2"
	Kind               = "ImageSetConfiguration"
)

// Config is what an oc-mirror ImageSetConfiguration says about operator
// catalogs: one Catalog per entry of mirror.operators.
type Config struct {
	File     string
	Catalogs []Catalog
}

// Catalog is one entry of mirror.operators: the filter for one catalog.
type Catalog struct {
	// Catalog is the reference the entry is for, as written.
	Catalog string
	Filter
	Line int
}

// Filter says what to keep of a catalog.
type Filter struct {
	// Full keeps every bundle of the packages and channels kept, instead
	// of only the channel heads.
	Full bool
	// Packages are the packages to keep; none keeps every package.
	Packages []Package
	// ShortForm marks a filter made by FromPackageArgs: when a package's
	// default channel is not among its listed channels, the first one
	// listed becomes the default instead of that being an error.
	ShortForm bool
	// File is the configuration file the filter was read from, if any:
	// errors about a package or channel it lists name its line.
	File string
}

// at is the "file:line: " prefix of errors about what the configuration
// says at line, empty when the filter did not come from a file.
func (f *Filter) at(line int) string {
	if f.File == "" || line <= 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d: ", f.File, line)
}

// Package says what to keep of one package.
type Package struct {
	Name string
	// DefaultChannel replaces the package's default channel; it must be
	// one of the channels kept.
	DefaultChannel string
	// Range applies to every channel kept that has no range of its own.
	Range    Range
	Channels []Channel
	Line     int
}

// Channel says what to keep of one channel.
type Channel struct {
	Name  string
	Range Range
	Line  int
}

// Range is an inclusive range of versions; a nil bound is open.
type Range struct {
	Min, Max *semver.Version
	// Text is the range as written, for messages.
	Text string
}

// IsSet reports whether either bound is set.
func (r Range) IsSet() bool { return r.Min != nil || r.Max != nil }

// Contains reports whether v is within the range.
func (r Range) Contains(v semver.Version) bool {
	return (r.Min == nil || v.Compare(*r.Min) >= 0) && (r.Max == nil || v.Compare(*r.Max) <= 0)
}

// ForRef returns the filter of the entry whose catalog is ref (paths
// compared after cleaning), or of the only entry.
func (c *Config) ForRef(ref string) (*Catalog, error) {
	for i := range c.Catalogs {
		if sameRef(c.Catalogs[i].Catalog, ref) {
			return &c.Catalogs[i], nil
		}
	}
	if len(c.Catalogs) == 1 {
		return &c.Catalogs[0], nil
	}
	names := make([]string, len(c.Catalogs))
	for i, cat := range c.Catalogs {
		names[i] = strconv.Quote(cat.Catalog)
	}
	return nil, fmt.Errorf("%s: no mirror.operators entry has catalog %q (entries: %s); set an entry's catalog to the reference", c.File, ref, strings.Join(names, ", "))
}

func sameRef(a, b string) bool {
	if a == b {
		return true
	}
	strip := func(s string) string { return filepath.Clean(strings.TrimPrefix(s, "file://")) }
	return strip(a) == strip(b)
}

// FromPackageArgs makes a heads-only filter from NAME[:CHANNEL] arguments:
// the head of every channel of NAME, or of the channels named.
func FromPackageArgs(args []string) (Filter, error) {
	f := Filter{ShortForm: true}
	index := map[string]int{}
	for _, arg := range args {
		name, channel, hasChannel := strings.Cut(arg, ":")
		if name == "" || (hasChannel && channel == "") {
			return Filter{}, fmt.Errorf("invalid package %q: expected NAME or NAME:CHANNEL", arg)
		}
		i, ok := index[name]
		if !ok {
			i = len(f.Packages)
			index[name] = i
			f.Packages = append(f.Packages, Package{Name: name})
		} else if len(f.Packages[i].Channels) == 0 || !hasChannel {
			return Filter{}, fmt.Errorf("package %q is given both with and without a channel; name its channels each time or none", name)
		}
		if hasChannel {
			for _, ch := range f.Packages[i].Channels {
				if ch.Name == channel {
					return Filter{}, fmt.Errorf("channel %q of package %q is given twice", channel, name)
				}
			}
			f.Packages[i].Channels = append(f.Packages[i].Channels, Channel{Name: channel})
		}
	}
	return f, nil
}

// ParseConfig reads an oc-mirror ImageSetConfiguration (apiVersion
// mirror.openshift.io/v2alpha1 or v1alpha2). Fields of the
// configuration that do not concern catalog filtering (platform,
// additionalImages, targetCatalog, ...) are accepted and ignored; fields
// it does not have are errors, as are the filtering fields this filter
// does not implement. Every problem is a *position.Error that names file
// and line; all are reported together.
func ParseConfig(file string, data []byte) (*Config, error) {
	p := &configParser{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &position.Error{File: file, Message: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, position.At(file, 0, "empty file; expected an ImageSetConfiguration")
	}
	c := p.config(doc.Content[0])
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return c, nil
}

type configParser struct {
	file string
	errs []error
}

func (p *configParser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, position.At(p.file, n.Line, format, args...))
}

// Field handling: what a mapping may hold.
type fieldKind int

const (
	fieldUsed        fieldKind = iota // read by the filter
	fieldIgnored                      // part of the configuration, not of filtering
	fieldUnsupported                  // filtering this filter does not implement
)

type fieldSpec struct {
	kind fieldKind
	why  string // for unsupported fields: what to do instead
}

// fields checks a mapping node against spec and returns its used fields'
// values by name. Unknown and unsupported fields and duplicate keys are
// reported.
func (p *configParser) fields(n *yaml.Node, path string, spec map[string]fieldSpec) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping, not %s", path, describe(n))
		return out
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := k.Value
		if seen[name] {
			p.errorf(k, "%s: duplicate field %q", path, name)
			continue
		}
		seen[name] = true
		s, known := spec[name]
		switch {
		case !known:
			p.errorf(k, "%s: unknown field %q (expected one of: %s)", path, name, strings.Join(knownFields(spec), ", "))
		case s.kind == fieldUnsupported:
			p.errorf(k, "%s: %s is not supported by opm alpha filter; %s", path, name, s.why)
		case s.kind == fieldUsed:
			out[name] = v
		}
	}
	return out
}

func knownFields(spec map[string]fieldSpec) []string {
	var names []string
	for name, s := range spec {
		if s.kind != fieldUnsupported {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" {
		return "empty"
	}
	return fmt.Sprintf("%q", n.Value)
}

func (p *configParser) str(n *yaml.Node, path string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%s must be a string, not %s", path, describe(n))
		return ""
	}
	return n.Value
}

func (p *configParser) boolean(n *yaml.Node, path string) bool {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&b) != nil {
		p.errorf(n, "%s must be true or false, not %s", path, describe(n))
	}
	return b
}

func (p *configParser) list(n *yaml.Node, path string) []*yaml.Node {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list, not %s", path, describe(n))
		return nil
	}
	return n.Content
}

var (
	topSpec = map[string]fieldSpec{
		"apiVersion": {}, "kind": {}, "mirror": {},
		"archiveSize": {kind: fieldIgnored}, "storageConfig": {kind: fieldIgnored},
	}
	mirrorSpec = map[string]fieldSpec{
		"operators": {},
		"platform":  {kind: fieldIgnored}, "additionalImages": {kind: fieldIgnored},
		"helm": {kind: fieldIgnored}, "blockedImages": {kind: fieldIgnored}, "samples": {kind: fieldIgnored},
	}
	operatorSpec = map[string]fieldSpec{
		"catalog": {}, "full": {}, "packages": {},
		"targetCatalog": {kind: fieldIgnored}, "targetTag": {kind: fieldIgnored}, "targetName": {kind: fieldIgnored},
		"skipDependencies": {kind: fieldIgnored}, "originalRef": {kind: fieldIgnored},
		"headsOnly": {kind: fieldUnsupported, why: "heads only is the default; use full: true to keep everything"},
	}
	packageSpec = map[string]fieldSpec{
		"name": {}, "defaultChannel": {}, "minVersion": {}, "maxVersion": {}, "channels": {},
		"bundles":   {kind: fieldUnsupported, why: "select versions with minVersion and maxVersion"},
		"minBundle": {kind: fieldUnsupported, why: "select versions with minVersion"},
	}
	channelSpec = map[string]fieldSpec{
		"name": {}, "minVersion": {}, "maxVersion": {},
		"minBundle": {kind: fieldUnsupported, why: "select versions with minVersion"},
	}
)

func (p *configParser) config(root *yaml.Node) *Config {
	c := &Config{File: p.file}
	top := p.fields(root, "the configuration", topSpec)
	if len(p.errs) > 0 && root.Kind != yaml.MappingNode {
		return c
	}
	kind, ok := top["kind"]
	switch {
	case !ok:
		p.errorf(root, "missing kind: expected kind: %s", Kind)
	case p.str(kind, "kind") != Kind && kind.Kind == yaml.ScalarNode:
		p.errorf(kind, "unknown kind %q: expected %s", kind.Value, Kind)
	}
	api, ok := top["apiVersion"]
	switch {
	case !ok:
		p.errorf(root, "missing apiVersion: expected %s or %s", APIVersionV2Alpha1, APIVersionV1Alpha2)
	default:
		if v := p.str(api, "apiVersion"); v != APIVersionV2Alpha1 && v != APIVersionV1Alpha2 && api.Kind == yaml.ScalarNode {
			p.errorf(api, "unsupported apiVersion %q: expected %s or %s", v, APIVersionV2Alpha1, APIVersionV1Alpha2)
		}
	}
	mirror, ok := top["mirror"]
	if !ok {
		p.errorf(root, "missing mirror.operators: nothing says which catalog to filter")
		return c
	}
	m := p.fields(mirror, "mirror", mirrorSpec)
	ops, ok := m["operators"]
	if !ok {
		if mirror.Kind == yaml.MappingNode {
			p.errorf(mirror, "missing mirror.operators: nothing says which catalog to filter")
		}
		return c
	}
	for i, op := range p.list(ops, "mirror.operators") {
		c.Catalogs = append(c.Catalogs, p.catalog(op, fmt.Sprintf("mirror.operators[%d]", i)))
	}
	if len(c.Catalogs) == 0 && ops.Kind == yaml.SequenceNode {
		p.errorf(ops, "mirror.operators is empty: add an entry with the catalog to filter")
	}
	return c
}

func (p *configParser) catalog(n *yaml.Node, path string) Catalog {
	cat := Catalog{Line: n.Line, Filter: Filter{File: p.file}}
	f := p.fields(n, path, operatorSpec)
	if v, ok := f["catalog"]; ok {
		cat.Catalog = p.str(v, path+": catalog")
	} else if n.Kind == yaml.MappingNode {
		p.errorf(n, "%s: missing catalog", path)
	}
	if v, ok := f["full"]; ok {
		cat.Full = p.boolean(v, path+": full")
	}
	seen := map[string]*yaml.Node{}
	if v, ok := f["packages"]; ok {
		for i, pn := range p.list(v, path+": packages") {
			pkg := p.pkg(pn, fmt.Sprintf("%s.packages[%d]", path, i), cat.Full)
			if first := seen[pkg.Name]; first != nil && pkg.Name != "" {
				p.errorf(pn, "package %q is listed twice (first at line %d); merge the entries", pkg.Name, first.Line)
				continue
			}
			seen[pkg.Name] = pn
			cat.Packages = append(cat.Packages, pkg)
		}
	}
	return cat
}

func (p *configParser) pkg(n *yaml.Node, path string, full bool) Package {
	pkg := Package{Line: n.Line}
	if name := peekName(n); name != "" {
		path = fmt.Sprintf("package %q", name)
	}
	f := p.fields(n, path, packageSpec)
	if v, ok := f["name"]; ok {
		pkg.Name = p.str(v, path+": name")
	}
	if pkg.Name == "" && n.Kind == yaml.MappingNode {
		p.errorf(n, "%s: missing package name", path)
	}
	if v, ok := f["defaultChannel"]; ok {
		pkg.DefaultChannel = p.str(v, path+": defaultChannel")
	}
	pkg.Range = p.versionRange(f, path, full)
	seen := map[string]*yaml.Node{}
	if v, ok := f["channels"]; ok {
		for i, cn := range p.list(v, path+": channels") {
			ch := Channel{Line: cn.Line}
			cpath := fmt.Sprintf("%s: channels[%d]", path, i)
			if name := peekName(cn); name != "" {
				cpath = fmt.Sprintf("%s, channel %q", path, name)
			}
			cf := p.fields(cn, cpath, channelSpec)
			if v, ok := cf["name"]; ok {
				ch.Name = p.str(v, cpath+": name")
			}
			if ch.Name == "" && cn.Kind == yaml.MappingNode {
				p.errorf(cn, "%s: missing channel name", cpath)
			}
			ch.Range = p.versionRange(cf, cpath, full)
			if first := seen[ch.Name]; first != nil && ch.Name != "" {
				p.errorf(cn, "%s is listed twice (first at line %d)", cpath, first.Line)
				continue
			}
			seen[ch.Name] = cn
			pkg.Channels = append(pkg.Channels, ch)
		}
	}
	if pkg.Range.IsSet() && len(pkg.Channels) > 0 {
		p.errorf(n, "%s: minVersion/maxVersion of the package cannot be combined with channels; set them on the channels", path)
	}
	return pkg
}

// peekName returns the name field of a mapping, if it is a string, to name
// the mapping in messages.
func peekName(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], n.Content[i+1]; k.Value == "name" && v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
			return v.Value
		}
	}
	return ""
}

// versionRange reads minVersion and maxVersion.
func (p *configParser) versionRange(f map[string]*yaml.Node, path string, full bool) Range {
	var r Range
	var words []string
	bound := func(key, op string) *semver.Version {
		n, ok := f[key]
		if !ok {
			return nil
		}
		s := p.str(n, path+": "+key)
		if s == "" {
			return nil
		}
		v, err := semver.ParseTolerant(s)
		if err != nil {
			p.errorf(n, "%s: %s %q is not a semantic version: %v", path, key, s, err)
			return nil
		}
		if full {
			p.errorf(n, "%s: %s cannot be combined with full: true (full keeps every version)", path, key)
		}
		words = append(words, op+s)
		return &v
	}
	r.Min = bound("minVersion", ">=")
	r.Max = bound("maxVersion", "<=")
	r.Text = strings.Join(words, " ")
	if r.Min != nil && r.Max != nil && r.Min.Compare(*r.Max) > 0 {
		p.errorf(f["minVersion"], "%s: minVersion %s is greater than maxVersion %s", path, r.Min, r.Max)
	}
	return r
}
