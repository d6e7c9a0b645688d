package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// What else operator-controller's CRD upgrade-safety preflight refuses:
// changes it has no rule for (it fails closed), and, in a new CRD without
// a conversion webhook, served versions whose schemas differ unsafely in
// a way the old CRD's did not already.

// unhandledKeywords are the schema keywords the preflight compares but
// has no rule for: any change to one is refused. Keywords with children
// (properties, items, allOf, ...) are compared where the children are;
// description is ignored; type, enum, required, the bounds, default and
// format have their own rules.
var unhandledKeywords = []string{
	"$ref", "$schema", "example", "exclusiveMaximum", "exclusiveMinimum", "externalDocs", "id",
	"multipleOf", "nullable", "pattern", "title", "uniqueItems",
	"x-kubernetes-embedded-resource", "x-kubernetes-int-or-string", "x-kubernetes-list-map-keys",
	"x-kubernetes-list-type", "x-kubernetes-map-type", "x-kubernetes-preserve-unknown-fields",
	"x-kubernetes-validations",
}

// unhandledChanges lists the keywords among unhandledKeywords whose
// values differ. As when the preflight decodes a schema, false, "" and
// empty lists are the same as no value, except for the keywords whose
// value is optional (x-kubernetes-preserve-unknown-fields, -list-type,
// -map-type), where false and "" are values.
func unhandledChanges(o, n *value.Value) []nodeChange {
	var out []nodeChange
	for _, k := range unhandledKeywords {
		a, b := keywordValue(o, k), keywordValue(n, k)
		if a == b {
			continue
		}
		out = append(out, nodeChange{ReasonUnhandled, k, fmt.Sprintf("%s changed from %s to %s: the preflight has no rule for this change and refuses it", k, orNone(a), orNone(b))})
	}
	return out
}

// keywordValue is a keyword's value as compact JSON, "" for none.
func keywordValue(node *value.Value, k string) string {
	v := node.At(k)
	if v == nil {
		return ""
	}
	optional := k == "x-kubernetes-preserve-unknown-fields" || k == "x-kubernetes-list-type" || k == "x-kubernetes-map-type"
	switch {
	case v.Kind == value.Null:
		return ""
	case optional:
	case v.Kind == value.Bool && !v.Bool, v.Kind == value.String && v.Str == "",
		v.Kind == value.Array && len(v.Items) == 0, v.Kind == value.Object && len(v.Fields) == 0:
		return ""
	}
	return string(value.Compact(v))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// newServedProblems are the problems of the new CRD's served versions
// (see servedProblems) that the old CRD's served versions did not have:
// the same pair of versions, field and message. A new CRD with a
// conversion webhook (spec.conversion.strategy Webhook) has none; the old
// CRD's problems count whatever its conversion.
func newServedProblems(old, new *crd) []crdProblem {
	if new.webhook {
		return nil
	}
	problems := servedProblems(new)
	if len(problems) == 0 {
		return nil
	}
	had := map[[3]string]bool{}
	for _, p := range servedProblems(old) {
		had[[3]string{p.version, p.path, p.msg}] = true
	}
	return slices.DeleteFunc(problems, func(p crdProblem) bool { return had[[3]string{p.version, p.path, p.msg}] })
}

// servedProblems compares each served version of a CRD with each later
// one (in Kubernetes' version order): without a conversion webhook the
// API server serves one stored object in all of them, so a later version
// may not drop or tighten what an earlier one allows.
func servedProblems(c *crd) []crdProblem {
	if len(c.served) < 2 {
		return nil
	}
	served := slices.Clone(c.served)
	slices.SortStableFunc(served, compareKubeVersions)
	var out []crdProblem
	for i, older := range served[:len(served)-1] {
		for _, newer := range served[i+1:] {
			for _, p := range compareVersions(c.version(older), c.version(newer)) {
				p.version = fmt.Sprintf("served versions %s and %s (no conversion webhook)", older, newer)
				out = append(out, p)
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
