// Version ranges as a ClusterExtension's spec.source.catalog.version
// takes them: Masterminds semver constraints.

package olmv1

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"
)

// versionRange is a parsed range: any of its groups, each all of its
// constraints.
type versionRange [][]constraint

// constraint is one comparison of a range.
type constraint struct {
	op      string
	lo, hi  semver.Version // the versions the written (maybe partial) version stands for: [lo, hi)
	partial bool           // fewer than three numbers, or wildcards
	pre     bool           // the version has a pre-release
}

// parseVersionRange parses a range: constraints separated by commas or
// spaces must all hold, groups separated by "||" are alternatives;
// operators =, !=, >, >=, <, <=, ~, ^, wildcards (1.2.x, *) and hyphen
// ranges (1.2 - 1.4) as Masterminds semver reads them.
func parseVersionRange(s string) (versionRange, error) {
	var r versionRange
	for _, group := range strings.Split(s, "||") {
		tokens := strings.Fields(strings.ReplaceAll(group, ",", " "))
		var all []constraint
		for i := 0; i < len(tokens); i++ {
			tok := tokens[i]
			if strings.Trim(tok, "=<>!~^") == "" && i+1 < len(tokens) {
				i++
				tok += tokens[i]
			}
			if i+2 < len(tokens) && tokens[i+1] == "-" {
				lo, err := parseConstraint(">=" + tok)
				if err != nil {
					return nil, err
				}
				hi, err := parseConstraint("<=" + tokens[i+2])
				if err != nil {
					return nil, err
				}
				all = append(all, lo, hi)
				i += 2
				continue
			}
			c, err := parseConstraint(tok)
			if err != nil {
				return nil, err
			}
			all = append(all, c)
		}
		if len(all) == 0 {
			return nil, fmt.Errorf("improper constraint: %q", s)
		}
		r = append(r, all)
	}
	return r, nil
}

// parseConstraint parses one operator and version.
func parseConstraint(tok string) (constraint, error) {
	op := strings.TrimRight(tok[:len(tok)-len(strings.TrimLeft(tok, "=<>!~^"))], " ")
	ver := strings.TrimPrefix(strings.TrimPrefix(tok[len(op):], "v"), "V")
	switch op {
	case "", "=", "!=", ">", ">=", "<", "<=", "=<", "~", "~>", "^":
	default:
		return constraint{}, fmt.Errorf("improper constraint: %s", tok)
	}
	c := constraint{op: op}
	core, pre, _ := strings.Cut(ver, "-")
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	if len(parts) > 3 {
		return constraint{}, fmt.Errorf("improper constraint: %s", tok)
	}
	var nums []uint64
	for _, p := range parts {
		if p == "x" || p == "X" || p == "*" {
			break
		}
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return constraint{}, fmt.Errorf("improper constraint: %s", tok)
		}
		nums = append(nums, n)
	}
	c.partial = len(nums) < 3
	for len(nums) < 3 {
		nums = append(nums, 0)
	}
	c.lo = semver.Version{Major: nums[0], Minor: nums[1], Patch: nums[2]}
	if pre != "" && !c.partial {
		v, err := semver.Parse(fmt.Sprintf("%d.%d.%d-%s", nums[0], nums[1], nums[2], pre))
		if err != nil {
			return constraint{}, fmt.Errorf("improper constraint: %s: %w", tok, err)
		}
		c.lo, c.pre = v, true
	}
	c.hi = upper(c.lo, countSpecified(parts))
	return c, nil
}

// countSpecified counts the leading numbers of a written version.
func countSpecified(parts []string) int {
	n := 0
	for _, p := range parts {
		if p == "x" || p == "X" || p == "*" || p == "" {
			break
		}
		n++
	}
	return n
}

// upper is the first version past those a version with n numbers
// written stands for.
func upper(v semver.Version, n int) semver.Version {
	switch n {
	case 0:
		return semver.Version{Major: 1 << 62}
	case 1:
		return semver.Version{Major: v.Major + 1}
	case 2:
		return semver.Version{Major: v.Major, Minor: v.Minor + 1}
	}
	return semver.Version{Major: v.Major, Minor: v.Minor, Patch: v.Patch + 1, Pre: []semver.PRVersion{{VersionStr: "0"}}}
}

// Contains reports whether v is in the range. A pre-release is in it
// only if a constraint of its group names a pre-release.
func (r versionRange) Contains(v semver.Version) bool {
	for _, group := range r {
		ok := len(v.Pre) == 0
		for _, c := range group {
			ok = ok || c.pre
		}
		for _, c := range group {
			ok = ok && c.check(v)
		}
		if ok {
			return true
		}
	}
	return false
}

// check tests one constraint.
func (c constraint) check(v semver.Version) bool {
	exact := !c.partial
	in := v.GTE(c.lo) && (v.LT(c.hi) || exact && v.EQ(c.lo))
	if exact {
		in = v.EQ(c.lo)
	}
	switch c.op {
	case "", "=":
		return in
	case "!=":
		return !in
	case ">":
		if exact {
			return v.GT(c.lo)
		}
		return v.GTE(c.hi)
	case ">=":
		return v.GTE(c.lo)
	case "<":
		return v.LT(c.lo)
	case "<=", "=<":
		if exact {
			return v.LTE(c.lo)
		}
		return v.LT(c.hi)
	case "~", "~>":
		return v.GTE(c.lo) && v.LT(tildeUpper(c))
	}
	return v.GTE(c.lo) && v.LT(caretUpper(c))
}

// tildeUpper: ~1.2.3 and ~1.2 allow patches, ~1 allows minors.
func tildeUpper(c constraint) semver.Version {
	if c.partial && c.hi.Major != c.lo.Major {
		return semver.Version{Major: c.lo.Major + 1}
	}
	return semver.Version{Major: c.lo.Major, Minor: c.lo.Minor + 1}
}

// caretUpper: ^ allows changes that keep the first non-zero number.
func caretUpper(c constraint) semver.Version {
	switch {
	case c.lo.Major > 0 || c.partial && c.hi.Major != c.lo.Major:
		return semver.Version{Major: c.lo.Major + 1}
	case c.lo.Minor > 0 || c.partial:
		return semver.Version{Minor: c.lo.Minor + 1}
	}
	return semver.Version{Patch: c.lo.Patch + 1}
}
