package finding

import (
	"cmp"
	"slices"
	"strings"
)

// One problem, one finding: a CRD version renamed without the CSV makes
// csv-crd-mismatch, crd-upgrade-unsafe and four operator-sdk errors; a
// missing display name fails required-fields and operator-sdk; both
// operator-sdk suites print the validators they share. The rules say
// which problem each finding is about (Finding.Causes), and Combine
// makes one finding of those that share one.

// Combine makes one finding of the findings of one package and bundle
// that share a cause (directly, or through others: a CSV entry's missing
// version and the CRD's removed stored version are one problem when one
// finding names both), and returns the findings sorted. The finding that
// stands for the problem is the most severe, then the first by rank
// (lower first: the rule that names the cause before those that follow
// from it); it keeps its place and message, and names every rule
// (Rules) and pipeline check (Checks) of the others, whose messages are
// in Related. The combined finding counts as long as one of its
// findings does: it is suppressed only when all are, and it is what the
// others are released or superseded as only when all are.
func Combine(fs []Finding, rank func(rule string) int) []Finding {
	if len(fs) == 0 {
		return nil
	}
	groups := group(fs)
	out := make([]Finding, 0, len(groups))
	for _, g := range groups {
		out = append(out, combined(fs, g, rank))
	}
	return Sort(out)
}

// group puts the indexes of findings that share a cause (of the same
// package and bundle, found in the same catalogs: a catalog linted on its
// own keeps its findings) in one group, each group in the findings'
// order.
func group(fs []Finding) [][]int {
	parent := make([]int, len(fs))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	first := map[string]int{}
	for i := range fs {
		for _, c := range fs[i].Causes {
			k := strings.Join(append([]string{fs[i].Package, fs[i].Bundle, c}, fs[i].Catalogs...), "\x00")
			if j, ok := first[k]; ok {
				parent[find(i)] = find(j)
			} else {
				first[k] = i
			}
		}
	}
	at := map[int]int{}
	var out [][]int
	for i := range fs {
		r := find(i)
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

// combined is the one finding of a group.
func combined(fs []Finding, g []int, rank func(string) int) Finding {
	if len(g) == 1 {
		f := fs[g[0]]
		f.Rules, f.Checks = []string{f.Rule}, appendCheck(nil, f.Check)
		return f
	}
	members := make([]Finding, len(g))
	for k, i := range g {
		members[k] = fs[i]
	}
	// The findings that count speak for the problem; the suppressed ones
	// only when all are.
	counted := slices.DeleteFunc(slices.Clone(members), func(f Finding) bool { return f.Suppressed != "" })
	if len(counted) == 0 {
		counted = members
	}
	slices.SortStableFunc(counted, func(a, b Finding) int {
		return cmp.Or(-cmp.Compare(a.Severity.rank(), b.Severity.rank()), cmp.Compare(rank(a.Rule), rank(b.Rule)), Compare(a, b))
	})
	out := counted[0]
	out.Rules, out.Checks, out.Related = []string{out.Rule}, appendCheck(nil, out.Check), nil
	byRank := slices.Clone(members)
	slices.SortStableFunc(byRank, func(a, b Finding) int { return cmp.Compare(rank(a.Rule), rank(b.Rule)) })
	for _, m := range byRank {
		if !slices.Contains(out.Rules, m.Rule) {
			out.Rules = append(out.Rules, m.Rule)
		}
		out.Checks = appendCheck(out.Checks, m.Check)
		out.Catalogs = JoinCatalogs(out.Catalogs, m.Catalogs)
	}
	for _, m := range counted {
		if m.History != out.History {
			out.History = ""
		}
	}
	for _, m := range members {
		if sameFinding(&m, &counted[0]) {
			continue
		}
		r := Related{Rule: m.Rule, Check: m.Check, Severity: m.Severity, File: m.File, Line: m.Line, Message: m.Message}
		if !slices.Contains(out.Related, r) {
			out.Related = append(out.Related, r)
		}
	}
	slices.SortFunc(out.Related, func(a, b Related) int {
		return cmp.Or(cmp.Compare(rank(a.Rule), rank(b.Rule)), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Message, b.Message))
	})
	return out
}

// sameFinding reports whether a and b are the same finding (the one that
// stands for a group is not related to itself).
func sameFinding(a, b *Finding) bool {
	return a.Rule == b.Rule && a.File == b.File && a.Line == b.Line && a.Message == b.Message && a.Check == b.Check
}

// appendCheck adds a check to a list once; "" is no check.
func appendCheck(list []string, check string) []string {
	if check == "" || slices.Contains(list, check) {
		return list
	}
	return append(list, check)
}
