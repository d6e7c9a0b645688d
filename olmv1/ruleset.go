// Rule sets: RBAC rules gathered from many sources, merged and
// deduplicated, each remembering why it is there.

package olmv1

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/fbcat/opm/registryv1"
)

// ruleAtom is the smallest thing a rule grants verbs on: one resource of
// one group, one object of it (name), or one non-resource URL.
type ruleAtom struct {
	group, resource, name, url string
}

// grant is what a rule set holds for an atom: the verbs, and why, as
// reason -> the objects that need it.
type grant struct {
	verbs map[string]bool
	why   map[string]map[string]bool
}

// ruleSet gathers rules.
type ruleSet struct {
	atoms map[ruleAtom]*grant
	// parent, if set, holds rules granted already (cluster-wide): what
	// it covers is left out of this set's rules.
	parent *ruleSet
}

func newRuleSet() *ruleSet { return &ruleSet{atoms: map[ruleAtom]*grant{}} }

// add grants verbs on an atom, because of what on object obj.
func (s *ruleSet) add(a ruleAtom, verbs []string, what, obj string) {
	g := s.atoms[a]
	if g == nil {
		g = &grant{verbs: map[string]bool{}, why: map[string]map[string]bool{}}
		s.atoms[a] = g
	}
	for _, v := range verbs {
		g.verbs[v] = true
	}
	if g.why[what] == nil {
		g.why[what] = map[string]bool{}
	}
	g.why[what][obj] = true
}

// addRule adds an RBAC rule, atom by atom.
func (s *ruleSet) addRule(r registryv1.PolicyRule, what, obj string) {
	for _, u := range r.NonResourceURLs {
		s.add(ruleAtom{url: u}, r.Verbs, what, obj)
	}
	names := r.ResourceNames
	if len(names) == 0 {
		names = []string{""}
	}
	for _, g := range r.APIGroups {
		for _, res := range r.Resources {
			for _, n := range names {
				s.add(ruleAtom{group: g, resource: res, name: n}, r.Verbs, what, obj)
			}
		}
	}
}

// covered reports whether an atom's verbs are all granted already by a
// broader atom: the same resource with no names, or wildcards.
func (s *ruleSet) covered(a ruleAtom, verbs map[string]bool) bool {
	var broader []ruleAtom
	if a.url != "" {
		if a.url != "*" {
			broader = append(broader, ruleAtom{url: "*"})
		}
	} else {
		for _, g := range []string{a.group, "*"} {
			for _, r := range []string{a.resource, "*"} {
				for _, n := range []string{a.name, ""} {
					b := ruleAtom{group: g, resource: r, name: n}
					if b != a {
						broader = append(broader, b)
					}
				}
			}
		}
	}
	for v := range verbs {
		held := s.parent.atomsOf(a) != nil && (s.parent.atoms[a].verbs[v] || s.parent.atoms[a].verbs["*"])
		for _, b := range broader {
			if held {
				break
			}
			if s.holds(b, v) {
				held = true
				break
			}
		}
		if !held {
			return false
		}
	}
	return true
}

// holds reports whether the set, or its parent, grants verb v on atom a.
func (s *ruleSet) holds(a ruleAtom, v string) bool {
	if g := s.atoms[a]; g != nil && (g.verbs[v] || g.verbs["*"]) {
		return true
	}
	if g := s.parent.atomsOf(a); g != nil && (g.verbs[v] || g.verbs["*"]) {
		return true
	}
	return false
}

// atomsOf is the grant of an atom, nil for none or a nil set.
func (s *ruleSet) atomsOf(a ruleAtom) *grant {
	if s == nil {
		return nil
	}
	return s.atoms[a]
}

// ruleKey groups atoms into rules: one group, one set of names, one set
// of verbs, many resources (or non-resource URLs).
type ruleKey struct {
	group, names, verbs string
	url                 bool
}

// rules returns the set as merged, sorted rules and a note for each.
func (s *ruleSet) rules() ([]registryv1.PolicyRule, []string) {
	type merged struct {
		key     ruleKey
		names   []string
		verbs   []string
		targets map[string]bool
		why     map[string]map[string]bool
	}
	byResource := map[ruleAtom]*grant{} // name left out: names merge per resource first
	namesOf := map[ruleAtom][]string{}
	for a, g := range s.atoms {
		if s.covered(a, g.verbs) {
			continue
		}
		k := ruleAtom{group: a.group, resource: a.resource, url: a.url, name: strings.Join(slices.Sorted(maps.Keys(g.verbs)), ",")}
		if a.name == "" {
			k.name = "\x00all\x00" + k.name
		}
		if byResource[k] == nil {
			byResource[k] = &grant{verbs: g.verbs, why: map[string]map[string]bool{}}
		}
		mergeWhy(byResource[k].why, g.why)
		if a.name != "" {
			namesOf[k] = append(namesOf[k], a.name)
		}
	}
	rules := map[ruleKey]*merged{}
	for k, g := range byResource {
		names := slices.Sorted(slices.Values(namesOf[k]))
		names = slices.Compact(names)
		verbs := slices.Sorted(maps.Keys(g.verbs))
		rk := ruleKey{group: k.group, names: strings.Join(names, "\x00"), verbs: strings.Join(verbs, ","), url: k.url != ""}
		m := rules[rk]
		if m == nil {
			m = &merged{key: rk, names: names, verbs: verbs, targets: map[string]bool{}, why: map[string]map[string]bool{}}
			rules[rk] = m
		}
		m.targets[cmp.Or(k.url, k.resource)] = true
		mergeWhy(m.why, g.why)
	}
	keys := slices.SortedFunc(maps.Keys(rules), func(a, b ruleKey) int {
		return cmp.Or(compareBool(a.url, b.url), cmp.Compare(a.group, b.group), cmp.Compare(a.names, b.names),
			cmp.Compare(strings.Join(slices.Sorted(maps.Keys(rules[a].targets)), ","), strings.Join(slices.Sorted(maps.Keys(rules[b].targets)), ",")),
			cmp.Compare(a.verbs, b.verbs))
	})
	var out []registryv1.PolicyRule
	var notes []string
	for _, k := range keys {
		m := rules[k]
		r := registryv1.PolicyRule{Verbs: m.verbs, ResourceNames: m.names}
		targets := slices.Sorted(maps.Keys(m.targets))
		if k.url {
			r.NonResourceURLs = targets
		} else {
			r.APIGroups, r.Resources = []string{k.group}, targets
		}
		out = append(out, r)
		notes = append(notes, describeWhy(m.why))
	}
	return out, notes
}

// mergeWhy adds the reasons of src to dst.
func mergeWhy(dst, src map[string]map[string]bool) {
	for what, objs := range src {
		if dst[what] == nil {
			dst[what] = map[string]bool{}
		}
		for o := range objs {
			dst[what][o] = true
		}
	}
}

// describeWhy writes reasons as lines "reason: object, object".
func describeWhy(why map[string]map[string]bool) string {
	var lines []string
	for _, what := range slices.Sorted(maps.Keys(why)) {
		lines = append(lines, what+": "+strings.Join(slices.Sorted(maps.Keys(why[what])), ", "))
	}
	return strings.Join(lines, "\n")
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
