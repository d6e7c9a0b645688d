package crdcompat

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Served versions: without a conversion webhook the API server serves
// one stored object in every served version, so the preflight (crdify's
// served version validator) refuses a new CRD whose served versions
// differ unsafely in a way the old CRD's did not already.

// newServedChanges are the problems of the new CRD's served versions
// (see servedChanges) that the old CRD's served versions did not have:
// crdify drops a problem the old CRD has for the same pair of versions,
// field, rule and message. Ours are matched by what crdify's message
// holds (see nodeChange.same: enum values and oneOf schemas as sets, a
// node's changes without a rule as one), and removed fields one by one,
// as crdify lists them, before those under another removed field are
// left out. A problem whose message lists values in random order (new
// required fields, see nodeChange.byChance) is never matched: crdify
// drops it only when its two lists happen to be in the same order, and
// refuses the upgrade otherwise; the message says so when the old CRD
// had it. A new CRD with a conversion webhook (spec.conversion.strategy
// Webhook) has none; the old CRD's problems count whatever its
// conversion.
func newServedChanges(old, new *CRD) []Change {
	if new.webhook {
		return nil
	}
	problems := servedChanges(new, form{literal: true})
	if len(problems) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, p := range servedChanges(old, form{}) {
		known[p.same] = true
	}
	problems = slices.DeleteFunc(problems, func(p servedProblem) bool { return known[p.same] && !p.byChance })
	for i, p := range problems {
		if p.byChance && known[p.same] {
			problems[i].Message += byChanceNote
		}
	}
	return saidElsewhere(problems)
}

// byChanceNote ends the message of a problem the old CRD's served
// versions had too, but that the preflight drops only by chance.
const byChanceNote = " (the old CRD's served versions differ the same way, but the preflight lists the fields in random order and drops an old problem only by the same message: it refuses the upgrade at random)"

// servedProblem is a change between two served versions of a CRD; its
// match says which problem it is (same: the pair, the field, the rule
// and what the preflight's message holds).
type servedProblem struct {
	Change
	match
}

// servedChanges compares each served version of a CRD with each later
// one (in Kubernetes' version order): without a conversion webhook the
// API server serves one stored object in all of them, so a later version
// may not drop or tighten what an earlier one allows. Nodes are written
// for same in the form given: literal for the new CRD, as the bundle has
// it; canonical for the old one, as the cluster has it.
func servedChanges(c *CRD, fm form) []servedProblem {
	if len(c.served) < 2 {
		return nil
	}
	served := slices.Clone(c.served)
	slices.SortStableFunc(served, compareKubeVersions)
	var out []servedProblem
	for i, older := range served[:len(served)-1] {
		for _, newer := range served[i+1:] {
			w := walk{served: true, form: fm}
			w.run(c.version(older), c.version(newer))
			pair := fmt.Sprintf("served versions %s and %s (no conversion webhook)", older, newer)
			for k, ch := range w.changes {
				ch.Version = pair
				m := w.matches[k]
				if m.same == "" {
					m.same = ch.Message
				}
				m.same = strings.Join([]string{pair, ch.Field, ch.Kind, m.same}, "\x00")
				out = append(out, servedProblem{Change: ch, match: m})
			}
		}
	}
	return out
}

// saidElsewhere leaves out the problems another one says: a removed field
// within another removed field of the same versions, and the change of a
// member compared whole with a change under it.
func saidElsewhere(problems []servedProblem) []Change {
	removed := map[[2]string]bool{}
	for _, p := range problems {
		if p.Kind == FieldRemoved {
			removed[[2]string{p.Version, p.Field}] = true
		}
	}
	var out []Change
	for _, p := range problems {
		switch {
		case p.Kind == FieldRemoved && removedAbove(removed, p.Version, p.Field):
		case p.whole != "" && slices.ContainsFunc(problems, func(q servedProblem) bool { return q.Version == p.Version && within(q.Field, p.whole) }):
		default:
			out = append(out, p.Change)
		}
	}
	return out
}

// removedAbove reports whether a field that holds field was removed.
func removedAbove(removed map[[2]string]bool, version, field string) bool {
	for i := range len(field) {
		if strings.IndexByte(".[(", field[i]) >= 0 && removed[[2]string{version, field[:i]}] {
			return true
		}
	}
	return false
}

var kubeVersionRE = regexp.MustCompile(`^v(\d+)(?:(alpha|beta)(\d+))?$`)

// compareKubeVersions orders version names as Kubernetes does: names
// that are not versions such as v1beta1 first (in reverse alphabetical
// order), then alpha, beta and GA versions, each by major and minor.
func compareKubeVersions(a, b string) int {
	ma, mb := kubeVersion(a), kubeVersion(b)
	switch {
	case ma == nil && mb == nil:
		return strings.Compare(b, a)
	case ma == nil:
		return -1
	case mb == nil:
		return 1
	}
	stability := map[string]int{"alpha": 0, "beta": 1, "": 2}
	if d := stability[ma[2]] - stability[mb[2]]; d != 0 {
		return d
	}
	if d := atoi(ma[1]) - atoi(mb[1]); d != 0 {
		return d
	}
	return atoi(ma[3]) - atoi(mb[3])
}

// kubeVersion is the parts of a Kubernetes version name (major, alpha
// or beta, minor), nil when it is none, or its numbers do not fit an int
// (as apimachinery's parser has it).
func kubeVersion(s string) []string {
	m := kubeVersionRE.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	if _, err := strconv.Atoi(m[1]); err != nil {
		return nil
	}
	if _, err := strconv.Atoi(m[3]); m[2] != "" && err != nil {
		return nil
	}
	return m
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
