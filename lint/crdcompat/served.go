package crdcompat

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Served versions: without a conversion webhook the API server serves
// one stored object in every served version, so the preflight refuses a
// new CRD whose served versions differ unsafely in a way the old CRD's
// did not already.

// newServedChanges are the problems of the new CRD's served versions
// (see servedChanges) that the old CRD's served versions did not have:
// the same pair of versions, field and message. A new CRD with a
// conversion webhook (spec.conversion.strategy Webhook) has none; the old
// CRD's problems count whatever its conversion.
func newServedChanges(old, new *CRD) []Change {
	if new.webhook {
		return nil
	}
	changes := servedChanges(new)
	if len(changes) == 0 {
		return nil
	}
	had := map[[3]string]bool{}
	for _, c := range servedChanges(old) {
		had[[3]string{c.Version, c.Field, c.Message}] = true
	}
	return slices.DeleteFunc(changes, func(c Change) bool { return had[[3]string{c.Version, c.Field, c.Message}] })
}

// servedChanges compares each served version of a CRD with each later
// one (in Kubernetes' version order): without a conversion webhook the
// API server serves one stored object in all of them, so a later version
// may not drop or tighten what an earlier one allows.
func servedChanges(c *CRD) []Change {
	if len(c.served) < 2 {
		return nil
	}
	served := slices.Clone(c.served)
	slices.SortStableFunc(served, compareKubeVersions)
	var out []Change
	for i, older := range served[:len(served)-1] {
		for _, newer := range served[i+1:] {
			for _, ch := range compareVersions(c.version(older), c.version(newer)) {
				ch.Version = fmt.Sprintf("served versions %s and %s (no conversion webhook)", older, newer)
				out = append(out, ch)
			}
		}
	}
	return out
}

var kubeVersionRE = regexp.MustCompile(`^v(\d+)(?:(alpha|beta)(\d+))?$`)

// compareKubeVersions orders version names as Kubernetes does: names
// that are not versions such as v1beta1 first (in reverse alphabetical
// order), then alpha, beta and GA versions, each by major and minor.
func compareKubeVersions(a, b string) int {
	ma, mb := kubeVersionRE.FindStringSubmatch(a), kubeVersionRE.FindStringSubmatch(b)
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

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
