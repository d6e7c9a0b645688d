package lint

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/blang/semver/v4"
	"golang.org/x/sync/errgroup"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/model"
)

// crd-upgrade-unsafe: the CRD changes of an upgrade edge that OLM v1's CRD
// upgrade-safety preflight (operator-controller's crdupgradesafety, which
// runs sigs.k8s.io/crdify) refuses: the scope changes; a stored version is
// removed; in a version both have, a field is removed or, field by field,
// its type changes, an enum is added or loses values, a required field is
// added, a maximum (maximum, maxItems, maxLength, maxProperties) is added
// or lowered, a minimum (minimum, minItems, minLength, minProperties) is
// added or raised, a default is added, removed or changed, the format
// changes, the set of oneOf schemas changes (see crdoneof.go), or anything
// else the preflight has no rule for changes (it fails closed: pattern,
// nullable, CEL rules, ...); and, in the new CRD when it has no conversion
// webhook, served versions differ in those ways where the old CRD's did
// not (see crdserved.go). Description changes and added enum values are
// safe. Each CRD of an edge with unsafe changes makes one finding that
// lists them all (see crdfinding.go).

// crdProblem is one unsafe change of a kind (see Reason), at a line of
// the new CRD (that of the node the change is at; 0 when unknown).
type crdProblem struct {
	kind, version, path string
	line                int
	msg                 string
}

// nodeLine is a node's line, 0 for none.
func nodeLine(n *value.Value) int {
	if n == nil {
		return 0
	}
	return int(n.Line)
}

// compareCRDs lists the unsafe changes from old to new but those of its
// served versions (see newServedProblems).
func compareCRDs(old, new *crd) []crdProblem {
	var out []crdProblem
	if old.scope != new.scope {
		out = append(out, crdProblem{kind: ReasonScopeChanged, line: nodeLine(new.obj.root().At("spec", "scope")), msg: fmt.Sprintf("scope changed from %s to %s", old.scope, new.scope)})
	}
	for _, s := range old.stored {
		if new.version(s) == nil {
			out = append(out, crdProblem{kind: ReasonStoredVersionRemoved, line: nodeLine(new.obj.root().At("spec", "versions")), msg: fmt.Sprintf("stored version %s removed: objects stored in it can no longer be read; keep it (served: false) until they are migrated", s)})
		}
	}
	for _, ov := range old.versions {
		nv := new.version(ov.name)
		if nv == nil {
			continue
		}
		out = append(out, compareVersions(ov, nv)...)
	}
	return out
}

// compareVersions compares the schemas of one version.
func compareVersions(ov, nv *crdVersion) []crdProblem {
	var out []crdProblem
	removed := map[string]bool{}
	for _, path := range ov.paths {
		if removed[ov.parent[path]] && path != "" {
			removed[path] = true // within a removed field: reported with it
			continue
		}
		n := nv.nodes[path]
		if n == nil {
			removed[path] = true
			at := nv.nodes[ov.parent[path]]
			if at == nil {
				at = nv.node
			}
			out = append(out, crdProblem{kind: ReasonFieldRemoved, version: ov.name, path: path, line: nodeLine(at), msg: "field removed: existing objects that set it no longer validate; deprecate it instead of removing it"})
			continue
		}
		if ov.signature(path) == nv.signature(path) {
			continue // nothing compareNodes reads differs
		}
		for _, c := range compareNodes(ov.nodes[path], n) {
			at := n.At(c.key)
			if at == nil || c.key == "" {
				at = n
			}
			out = append(out, crdProblem{kind: c.kind, version: ov.name, path: path, line: nodeLine(at), msg: c.msg})
		}
	}
	return out
}

// nodeChange is an unsafe change of a kind (see Reason) of a schema
// node, made by its member key (where the reason points, if the new node
// has it).
type nodeChange struct {
	kind, key, msg string
}

// compareNodes lists the unsafe changes of one schema node.
func compareNodes(o, n *value.Value) []nodeChange {
	var out []nodeChange
	add := func(kind, key string, msgs ...string) {
		for _, m := range msgs {
			out = append(out, nodeChange{kind, key, m})
		}
	}
	if a, b := o.StringAt("type"), n.StringAt("type"); a != b {
		add(ReasonTypeChanged, "type", fmt.Sprintf("type changed from %q to %q", a, b))
	}
	add(ReasonEnumRemoved, "enum", enumChange(o.At("enum"), n.At("enum"))...)
	if added := newItems(o.At("required"), n.At("required")); len(added) > 0 {
		add(ReasonRequiredAdded, "required", fmt.Sprintf("new required fields %s: existing objects without them no longer validate; make them optional (with a default set by the operator)", strings.Join(added, ", ")))
	}
	for _, k := range []string{"maximum", "maxItems", "maxLength", "maxProperties"} {
		add(ReasonValidationTightened, k, boundChange(k, o.At(k), n.At(k), func(a, b float64) bool { return b < a }, "lowered")...)
	}
	for _, k := range []string{"minimum", "minItems", "minLength", "minProperties"} {
		add(ReasonValidationTightened, k, boundChange(k, o.At(k), n.At(k), func(a, b float64) bool { return b > a }, "raised")...)
	}
	if a, b := o.StringAt("format"), n.StringAt("format"); a != b {
		add(ReasonValidationTightened, "format", fmt.Sprintf("format changed from %q to %q", a, b))
	}
	add(ReasonOneOfChanged, "oneOf", oneOfChanges(o.At("oneOf"), n.At("oneOf"))...)
	out = append(out, unhandledChanges(o, n)...)
	od, nd := o.At("default"), n.At("default")
	switch {
	case od == nil && nd != nil:
		add(ReasonDefaultChanged, "default", fmt.Sprintf("default %s added where there was none", value.Compact(nd)))
	case od != nil && nd == nil:
		add(ReasonDefaultChanged, "", fmt.Sprintf("default %s removed", value.Compact(od)))
	case od != nil && string(value.Compact(od)) != string(value.Compact(nd)):
		add(ReasonDefaultChanged, "default", fmt.Sprintf("default changed from %s to %s", value.Compact(od), value.Compact(nd)))
	}
	return out
}

// enumChange reports an enum added to a field that had none, and values
// taken out of one; values may be added.
func enumChange(o, n *value.Value) []string {
	ov, nv := jsonItems(o), jsonItems(n)
	switch {
	case len(ov) == 0 && len(nv) > 0:
		return []string{fmt.Sprintf("enum %s added where any value was allowed", strings.Join(nv, ", "))}
	case len(nv) == 0:
		return nil // no enum any more: every value is allowed
	}
	var gone []string
	for _, v := range ov {
		if !slices.Contains(nv, v) {
			gone = append(gone, v)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("enum values %s removed: existing objects that use them no longer validate", strings.Join(gone, ", "))}
}

// boundChange reports a bound added, or moved the way tighter says.
func boundChange(k string, o, n *value.Value, tighter func(a, b float64) bool, moved string) []string {
	switch {
	case n == nil || n.Kind != value.Number:
		return nil
	case o == nil || o.Kind != value.Number:
		return []string{fmt.Sprintf("%s %s added where there was none", k, value.Compact(n))}
	case tighter(o.Num, n.Num):
		return []string{fmt.Sprintf("%s %s from %s to %s", k, moved, value.Compact(o), value.Compact(n))}
	}
	return nil
}

// jsonItems lists a list's items as compact JSON.
func jsonItems(v *value.Value) []string {
	if v == nil || v.Kind != value.Array {
		return nil
	}
	out := make([]string, len(v.Items))
	for i := range v.Items {
		out[i] = string(value.Compact(&v.Items[i]))
	}
	return out
}

// newItems lists the strings of n that o does not have.
func newItems(o, n *value.Value) []string {
	var out []string
	have := jsonItems(o)
	for _, s := range jsonItems(n) {
		if !slices.Contains(have, s) {
			out = append(out, strings.Trim(s, `"`))
		}
	}
	return out
}

// upgradeFindings compares the CRDs the two bundles share: one finding
// per CRD with unsafe changes. CRDs whose content is the same are not
// read: they have no change, and their served versions no problem the
// old CRD did not have already.
// Pairs already compared are taken from pairs (see crdPairs).
func upgradeFindings(from, to *bundle, channel string, pairs *crdPairs) []Finding {
	oldCRDs, newCRDs := from.crdObjects(), to.crdObjects()
	var out []Finding
	for _, name := range sortedKeys(newCRDs) {
		oo, no := oldCRDs[name], newCRDs[name]
		if oo == nil || oo.sum == no.sum {
			continue
		}
		if problems := pairs.problems(from, oo, to, no); len(problems) > 0 {
			out = append(out, crdFinding(from, to, no, problems, channel))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func crdUpgradeBundle(c *bundleCheck) []Finding {
	if c.previous == nil {
		return nil
	}
	return upgradeFindings(c.previous, c.b, "", c.pairs)
}

// crdUpgradePackage checks every upgrade edge of the package's channels:
// an entry and each bundle it replaces or skips, and each pair of
// bundles consecutive by version in a channel (which covers skipRange
// upgrades). Each pair of bundles is compared once.
func crdUpgradePackage(c *packageCheck) []Finding {
	var out []Finding
	done := map[[2]string]bool{}
	for _, chName := range c.pkg.ChannelNames() {
		for _, e := range upgradeEdges(c.pkg.Channels[chName]) {
			if done[e] {
				continue
			}
			done[e] = true
			if !c.hasCRDs(e[0]) || !c.hasCRDs(e[1]) {
				continue
			}
			a, b := c.source(e[0]), c.source(e[1])
			out = append(out, upgradeFindings(a, b, chName, c.pairs)...)
		}
	}
	return out
}

// upgradeEdges lists a channel's upgrades as {from, to}: the replaces and
// skips of its entries, then the bundles consecutive by version.
func upgradeEdges(ch *model.Channel) [][2]string {
	var out [][2]string
	type versioned struct {
		name string
		v    semver.Version
	}
	var byVersion []versioned
	for _, e := range ch.Decl.Entries {
		for _, from := range append([]string{e.Replaces}, e.Skips...) {
			if from != "" {
				out = append(out, [2]string{from, e.Name})
			}
		}
		if b := ch.Package.Bundles[e.Name]; b != nil {
			if v, err := b.Version(); err == nil {
				byVersion = append(byVersion, versioned{e.Name, v.Version})
			}
		}
	}
	slices.SortStableFunc(byVersion, func(a, b versioned) int { return a.v.Compare(b.v) })
	for i := 1; i < len(byVersion); i++ {
		out = append(out, [2]string{byVersion[i-1].name, byVersion[i].name})
	}
	return out
}

// hasCRDs reports whether a bundle of the package may have CRDs: it has
// a bundle directory, or carries its manifests in the catalog.
func (c *packageCheck) hasCRDs(name string) bool {
	if c.cat.dirs[name] != nil {
		return true
	}
	b := c.pkg.Bundles[name]
	return b != nil && b.Decl != nil && hasObjects(b.Decl)
}

// crdUpgradeDirs compares the CRDs of an operator directory's bundle
// directories, each with the one of the version before it: the upgrade a
// new bundle directory makes before any catalog has it. Pairs are
// compared a few at a time; a bundle's trees are released once both its
// pairs are done.
func crdUpgradeDirs(dirs []*bundle, pairs *crdPairs) []Finding {
	type versioned struct {
		b *bundle
		v semver.Version
	}
	var byVersion []versioned
	for _, b := range dirs {
		if v, err := semver.Parse(b.theCSV().root().StringAt("spec", "version")); err == nil {
			byVersion = append(byVersion, versioned{b, v})
		}
	}
	slices.SortStableFunc(byVersion, func(a, b versioned) int { return a.v.Compare(b.v) })
	uses := make([]atomic.Int32, len(byVersion))
	for i := 1; i < len(byVersion); i++ {
		uses[i-1].Add(1)
		uses[i].Add(1)
	}
	done := func(i int) {
		if uses[i].Add(-1) == 0 {
			byVersion[i].b.releaseTrees()
		}
	}
	out := make([][]Finding, len(byVersion))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := 1; i < len(byVersion); i++ {
		g.Go(func() error {
			out[i] = upgradeFindings(byVersion[i-1].b, byVersion[i].b, "", pairs)
			done(i - 1)
			done(i)
			return nil
		})
	}
	_ = g.Wait() // the goroutines return no error
	return slices.Concat(out...)
}
