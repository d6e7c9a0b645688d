package suggest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// MaxNear is how many near misses Near returns at most.
const MaxNear = 3

// Near returns the candidates that name is most likely a slip of, the
// closest ones (in the candidates' order), at most MaxNear: the one rule of
// every "did you mean" about a name a maintainer typed. A candidate is
// near when it is the name in another case, or within a few edits of it
// ignoring case, where a swap of two neighbours counts one edit anywhere
// in the name (satble, tsable and aFst are one edit from stable and
// Fast): one edit for names of up to three characters, two for longer
// ones, and a fifth of the length for long ones. Names that differ only
// in their versions are not near: they name other versions (stable-v1.3
// beside stable-v1.2, fast-3 beside fast), not slips. The name itself is never
// near.
func Near(name string, candidates []string) []string {
	type scored struct {
		c string
		d int
	}
	var near []scored
	lower := strings.ToLower(name)
	for _, c := range candidates {
		if c == name || slices.ContainsFunc(near, func(s scored) bool { return s.c == c }) {
			continue
		}
		if d, ok := nearDistance(lower, name, c); ok {
			near = append(near, scored{c, d})
		}
	}
	slices.SortStableFunc(near, func(a, b scored) int { return a.d - b.d })
	var out []string
	for _, s := range near[:min(MaxNear, len(near))] {
		if s.d == near[0].d {
			out = append(out, s.c)
		}
	}
	return out
}

// Meant are the names a word typed on a command line (a command, a
// flag) may have meant: Near's, then those the word begins (at least two
// characters of it, ignoring case: --dry for --dry-run), at most MaxNear;
// a name typed as it is (a flag typed with one dash) is the one meant.
func Meant(typed string, names []string) []string {
	if slices.Contains(names, typed) {
		return []string{typed}
	}
	meant := Near(typed, names)
	lower := strings.ToLower(typed)
	for _, n := range names {
		if len(meant) == MaxNear {
			break
		}
		if len(typed) >= 2 && strings.HasPrefix(strings.ToLower(n), lower) && !slices.Contains(meant, n) {
			meant = append(meant, n)
		}
	}
	return meant
}

// nearDistance is the distance of candidate c from the name (given also
// lowercased), and whether that is near.
func nearDistance(lower, name, c string) (int, bool) {
	lc := strings.ToLower(c)
	if lc == lower {
		return 0, true
	}
	if withoutVersions(lc) == withoutVersions(lower) {
		return 0, false
	}
	d := Distance(lower, lc)
	return d, 2*d <= len(lc) && d <= max(2, len(lc)/5)
}

// withoutVersions is a name without its versions (its digits and dots,
// each run of digits with the "-", "_" or "v" that leads it: stable-v1.2,
// fast-3 and betav1 are stable, fast and beta): two names that are the
// same without them differ in the versions they name.
func withoutVersions(name string) string {
	return versionPart.ReplaceAllString(name, "")
}

// versionPart is what withoutVersions drops.
var versionPart = regexp.MustCompile(`[-_]?v?[0-9][0-9.]*|\.`)

// MaxListed is how many names List writes before saying how many there
// are in all.
const MaxListed = 10

// List writes names for a message, sorted and each once: "a, b, c", or the
// first MaxListed and "… (N in all)" when there are more.
func List(names []string) string {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	if len(sorted) <= MaxListed {
		return strings.Join(sorted, ", ")
	}
	return fmt.Sprintf("%s, … (%d in all)", strings.Join(sorted[:MaxListed], ", "), len(sorted))
}

// Or writes names as "a", "a or b", "a, b or c".
func Or(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Unknown is the error of a name that is none of the existing ones (an
// operator, bundle, channel, template or version a command was given):
// what is wrong, the names it is likely a slip of or, when it is near
// none, the names there are.
type Unknown struct {
	Kind    string   // what the name names: operator, bundle, channel, ...
	Name    string   // as given
	Problem string   // what is wrong, without the hint
	Near    []string // the names it may be a slip of, closest first
	Known   []string // when none is near: the names there are, sorted
}

// NewUnknown is the Unknown of name among existing, with the near names
// given (nil: the names Near it).
func NewUnknown(kind, name string, near, existing []string, problem string) *Unknown {
	if near == nil {
		near = Near(name, existing)
	}
	e := &Unknown{Kind: kind, Name: name, Problem: problem, Near: near}
	if len(near) == 0 {
		e.Known = slices.Compact(slices.Sorted(slices.Values(existing)))
	}
	return e
}

func (e *Unknown) Error() string {
	switch {
	case len(e.Near) > 0:
		return fmt.Sprintf("%s: did you mean %s?", e.Problem, Or(e.Near))
	case len(e.Known) > 0:
		return fmt.Sprintf("%s (%ss: %s)", e.Problem, e.Kind, List(e.Known))
	}
	return e.Problem
}
