package lint

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
)

// crd-upgrade-unsafe: the CRD changes of an upgrade edge that OLM refuses
// (see package crdcompat for what it compares). Each CRD of an edge with
// unsafe changes makes one finding that lists them all: at the CRD's
// manifest in a bundle directory, or at the new bundle's name in a
// catalog. The edges are the bundle being linted and Options.Previous,
// each upgrade of a catalog's channels, and the bundle directories of an
// operator directory, each with the one of the version before it.
const ruleCRDUpgrade = "crd-upgrade-unsafe"

// shownChanges is how many changes a finding's message spells out; the
// rest are counted (and all are in Finding.Reasons).
const shownChanges = 5

func crdUpgradeBundle(c *bundleCheck) []finding.Finding {
	if c.previous == nil {
		return nil
	}
	return upgradeFindings(c.previous, c.b, "", c.pairs)
}

// crdUpgradePackage checks every upgrade edge of the package's channels
// (model.Channel.Edges: replaces, skips and skipRange), each pair of
// bundles once.
func crdUpgradePackage(c *packageCheck) []finding.Finding {
	var out []finding.Finding
	done := map[[2]string]bool{}
	for _, chName := range c.pkg.ChannelNames() {
		for _, e := range c.pkg.Channels[chName].Edges() {
			if done[e] {
				continue
			}
			done[e] = true
			if !c.hasCRDs(e[1]) {
				continue
			}
			a, b := c.source(e[0]), c.source(e[1])
			if !c.hasCRDs(e[0]) {
				if a != nil && a.decl != nil {
					out = append(out, providedFindings(a, b, chName)...)
				}
				continue
			}
			if c.cat.installOnly || c.leftAlone(a) && c.leftAlone(b) {
				out = append(out, installFindings(a, b, chName, c.pairs)...)
				continue
			}
			out = append(out, upgradeFindings(a, b, chName, c.pairs)...)
		}
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
// directories, each that into says is upgraded to with the one of the
// version before it: the upgrade a new bundle directory makes before any
// catalog has it; two that a change left alone (alone) by their shapes. A bundle whose CSV's version is no semantic version (a
// bundle OLM cannot read) is placed by its directory's name, so that its
// CRDs are still compared. Pairs are compared a few at a time; a
// bundle's trees are released once both its pairs are done.
func crdUpgradeDirs(ctx context.Context, dirs []*bundle, into, alone func(*bundle) bool, pairs *crdcompat.Pairs) ([]finding.Finding, error) {
	type versioned struct {
		b *bundle
		v semver.Version
	}
	var byVersion []versioned
	for _, b := range dirs {
		v, err := semver.Parse(b.theCSV().root().StringAt("spec", "version"))
		if err != nil {
			v, err = semver.Parse(strings.TrimPrefix(filepath.Base(b.dir), "v"))
		}
		if err == nil {
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
	out := make([][]finding.Finding, len(byVersion))
	err := parallel.Do(ctx, max(len(byVersion)-1, 0), 0, func(k int) error {
		i := k + 1
		from, to := byVersion[i-1].b, byVersion[i].b
		switch {
		case !into(to):
		case alone(from) && alone(to): // a change left both alone: what breaks installs is all it reports of them
			out[i] = installFindings(from, to, "", pairs)
		default:
			out[i] = upgradeFindings(from, to, "", pairs)
		}
		done(i - 1)
		done(i)
		return nil
	})
	return slices.Concat(out...), err
}

// upgradeFindings compares the CRDs the two bundles share: one finding
// per CRD with unsafe changes. A CRD whose content is the same is read
// only when it may serve two versions: it has no change, but the
// preflight compares its served versions again, and drops the problems
// they had before only when its messages are the same (see crdcompat's
// newServedChanges). Pairs already compared are taken from pairs.
func upgradeFindings(from, to *bundle, channel string, pairs *crdcompat.Pairs) []finding.Finding {
	oldCRDs, newCRDs := from.crdObjects(), to.crdObjects()
	var out []finding.Finding
	for _, name := range slices.Sorted(maps.Keys(newCRDs)) {
		oo, no := oldCRDs[name], newCRDs[name]
		if oo == nil || oo.sum == no.sum && !no.multiServed {
			continue
		}
		changes := pairs.Changes(oo.sum, no.sum, func() (*crdcompat.CRD, *crdcompat.CRD) { return from.crd(oo), to.crd(no) })
		if len(changes) > 0 {
			out = append(out, crdFinding(from, to, no, changes, channel))
		}
	}
	return out
}

// changedCRDs compares, in a run over a change, the CRDs of each bundle
// directory the change edited with those the baseline has in it: a
// bundle released in one content and edited in place upgrades the
// clusters that installed the first (a release's own directory is new,
// and has no baseline to compare with).
func (l *linter) changedCRDs(dirs []*bundle) []finding.Finding {
	bl := l.compareTo
	if bl == nil {
		return nil
	}
	var out []finding.Finding
	for _, b := range dirs {
		if b.dir == "" || bl.Unchanged(b.dir) || !bl.Holds(b.dir) {
			continue
		}
		old, err := readBundleFS(os.DirFS(bl.Real(b.dir)), b.dir)
		if err != nil {
			continue // the baseline's copy is no bundle: nothing to upgrade from
		}
		oldCRDs := old.crdObjects()
		for name, no := range b.crdObjects() {
			oo := oldCRDs[name]
			if oo == nil || oo.sum == no.sum {
				continue // what did not change breaks nothing it did not before
			}
			if changes := l.pairs.Changes(oo.sum, no.sum, func() (*crdcompat.CRD, *crdcompat.CRD) { return old.crd(oo), b.crd(no) }); len(changes) > 0 {
				f := crdFinding(old, b, no, changes, "")
				f.Message = strings.Replace(f.Message, "upgrade from "+old.name, "upgrade from "+old.name+" as the baseline has it", 1)
				out = append(out, f)
			}
		}
	}
	return out
}

// installFindings compares the CRDs the two bundles share for what breaks
// installs whoever installs them (crdcompat.InstallChanges): by the
// shapes their manifests were skimmed for, without their schemas; CRDs
// not skimmed are compared whole (see upgradeFindings).
func installFindings(from, to *bundle, channel string, pairs *crdcompat.Pairs) []finding.Finding {
	oldCRDs, newCRDs := from.crdObjects(), to.crdObjects()
	var out []finding.Finding
	for _, name := range slices.Sorted(maps.Keys(newCRDs)) {
		oo, no := oldCRDs[name], newCRDs[name]
		switch {
		case oo == nil || oo.sum == no.sum:
		case oo.head == nil || no.head == nil:
			changes := pairs.Changes(oo.sum, no.sum, func() (*crdcompat.CRD, *crdcompat.CRD) { return from.crd(oo), to.crd(no) })
			if len(changes) > 0 {
				out = append(out, crdFinding(from, to, no, changes, channel))
			}
		default:
			if changes := crdcompat.InstallChanges(shapeOf(oo.head), shapeOf(no.head)); len(changes) > 0 {
				out = append(out, crdFinding(from, to, no, changes, channel))
			}
		}
	}
	return out
}

// providedFindings compares the CRDs of a bundle with what a catalog
// says of the bundle it upgrades from when the catalog does not carry
// that bundle's CRDs (olm.csv.metadata instead of olm.bundle.object): the
// APIs it provides (its olm.gvk properties). A kind it provides in one
// version alone is stored in that version; a new CRD of that group and
// kind without the version removes it, which OLM v0 refuses as it does
// any stored version's removal (the CSV may still own the version: the
// CRD's renaming it is one problem). Other changes need the old CRD.
func providedFindings(from, to *bundle, channel string) []finding.Finding {
	provided := map[[2]string][]string{}
	for i := range from.decl.Properties {
		p := &from.decl.Properties[i]
		if p.Type != declcfg.PropertyGVK {
			continue
		}
		if g, err := declcfg.ParsePropertyValue[declcfg.GVKProperty](p.Value); err == nil {
			k := [2]string{g.Group, g.Kind}
			provided[k] = append(provided[k], g.Version)
		}
	}
	var out []finding.Finding
	newCRDs := to.crdObjects()
	for _, name := range slices.Sorted(maps.Keys(newCRDs)) {
		no := newCRDs[name]
		root := no.root()
		versions := slices.Compact(slices.Sorted(slices.Values(provided[[2]string{root.StringAt("spec", "group"), root.StringAt("spec", "names", "kind")}])))
		if len(versions) != 1 {
			continue
		}
		if defined, _ := no.crdVersions(); slices.Contains(defined, versions[0]) {
			continue
		}
		v := versions[0]
		change := crdcompat.Change{Kind: crdcompat.StoredVersionRemoved, Version: v, Line: valueLine(root.At("spec", "versions")),
			Message: fmt.Sprintf("stored version removed: %s provides %s/%s %s alone (its olm.gvk property: the catalog does not carry its CRD), so objects are stored in %s, which this CRD no longer defines; keep it (served: false) until they are migrated",
				from.name, root.StringAt("spec", "group"), v, root.StringAt("spec", "names", "kind"), v)}
		out = append(out, crdFinding(from, to, no, []crdcompat.Change{change}, channel))
	}
	return out
}

// valueLine is a node's line, 0 for none.
func valueLine(n *value.Value) int {
	if n == nil {
		return 0
	}
	return int(n.Line)
}

// crdObjects returns a bundle's CRD objects by name.
func (b *bundle) crdObjects() map[string]*object {
	out := map[string]*object{}
	for _, o := range b.objects {
		if o.kind == "CustomResourceDefinition" && o.name != "" {
			out[o.name] = o
		}
	}
	return out
}

// crd returns the bundle's CRD of that object, read once.
func (b *bundle) crd(o *object) *crdcompat.CRD {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.crdIndex == nil {
		b.crdIndex = map[string]*crdcompat.CRD{}
	}
	c := b.crdIndex[o.name]
	if c == nil {
		c = crdcompat.Read(o.root())
		b.crdIndex[o.name] = c
	}
	return c
}

// crdFinding makes the one finding of an upgrade edge and a CRD of its
// new bundle, with every unsafe change as a reason. It is at the CRD's
// manifest in a bundle directory, or at the bundle's name in a catalog,
// where the changes have no line (the object's lines are not the
// catalog's).
func crdFinding(from, to *bundle, n *object, changes []crdcompat.Change, channel string) finding.Finding {
	reasons := slices.Clone(changes)
	if n.inCatalog {
		for i := range reasons {
			reasons[i].Line = 0
		}
	}
	subject := "CRD " + n.name
	if n.inCatalog && to.decl != nil {
		subject = fmt.Sprintf("CRD %s (the bundle's olm.bundle.object)", n.name)
	}
	f := objectFinding(ruleCRDUpgrade, finding.Error, to, n, nil, "upgrade from %s: %s", from.name, changesText(subject, reasons))
	f.Channel = channel
	f.Reasons = reasons
	// The same changes of a CRD reached from several bundles are one
	// problem; a stored version removed is the CRD's versions'.
	var same strings.Builder
	for _, r := range reasons {
		same.WriteString("\x00" + r.Kind + "\x00" + r.String())
		if r.Kind == crdcompat.StoredVersionRemoved {
			f.Causes = append(f.Causes, finding.CauseCRDVersions(n.name))
		}
	}
	f.Causes = append(f.Causes, finding.CauseSaid(ruleCRDUpgrade, n.name, 0, same.String()))
	return f
}

// changesText is "CRD X, version V, field F: message" for one change;
// for more, it spells out the first ones and counts the others.
func changesText(subject string, changes []crdcompat.Change) string {
	if len(changes) == 1 {
		if where := changes[0].Place(); where != "" {
			return subject + ", " + where + ": " + changes[0].Message
		}
		return subject + ": " + changes[0].Message
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d unsafe changes: ", subject, len(changes))
	for i := range changes {
		if i == shownChanges {
			fmt.Fprintf(&b, "; and %d more", len(changes)-shownChanges)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "(%d) %s", i+1, changes[i].String())
	}
	return b.String()
}
