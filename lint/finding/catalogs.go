package finding

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/registryv1/openshift"
)

// The catalogs a finding was made in: an operator directory's ci.yaml
// maps one template to several catalogs (one per OpenShift version), and
// the same bundle in ten catalogs is one problem, reported once, naming
// them (see Merge).

// shownCatalogs is how many catalogs CatalogsText names one by one;
// longer lists are counted, with their first and last.
const shownCatalogs = 3

// CompareCatalogs orders catalog names: OpenShift versions (v4.9 before
// v4.10) by version, before any other name, which are in byte order.
func CompareCatalogs(a, b string) int {
	va, _, ea := openshift.ParseVersion(a)
	vb, _, eb := openshift.ParseVersion(b)
	switch {
	case ea == nil && eb == nil:
		return cmp.Or(va.Compare(vb), cmp.Compare(a, b))
	case ea == nil:
		return -1
	case eb == nil:
		return 1
	}
	return cmp.Compare(a, b)
}

// JoinCatalogs is the union of two lists of catalog names, in
// CompareCatalogs order, each once.
func JoinCatalogs(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	out := append(slices.Clone(a), b...)
	slices.SortFunc(out, CompareCatalogs)
	return slices.Compact(out)
}

// CatalogsText names catalogs for a finding's subject: "catalog v4.16",
// "catalogs v4.16, v4.17", or for a long list "8 catalogs (v4.12-v4.19)",
// the first and the last; "" for none.
func CatalogsText(cs []string) string {
	switch {
	case len(cs) == 0:
		return ""
	case len(cs) == 1:
		return "catalog " + cs[0]
	case len(cs) <= shownCatalogs:
		return "catalogs " + strings.Join(cs, ", ")
	}
	return fmt.Sprintf("%d catalogs (%s-%s)", len(cs), cs[0], cs[len(cs)-1])
}

// Merge reports once each finding that several catalogs made: findings
// with the same key (keys[i] is that of fs[i], which the caller makes of
// what must be equal: the rule, package, bundle, object, message and
// whatever else tells two problems apart) become one, the one of the
// first catalog (in CompareCatalogs order: its place and channel are
// kept), naming every catalog. The order of the findings is kept
// otherwise.
func Merge(fs []Finding, keys []string) []Finding {
	at := make(map[string]int, len(fs))
	out := make([]Finding, 0, len(fs))
	for i, f := range fs {
		k := keys[i]
		j, seen := at[k]
		if !seen {
			at[k] = len(out)
			out = append(out, f)
			continue
		}
		kept := &out[j]
		all := JoinCatalogs(kept.Catalogs, f.Catalogs)
		if len(f.Catalogs) > 0 && len(kept.Catalogs) > 0 && CompareCatalogs(f.Catalogs[0], kept.Catalogs[0]) < 0 {
			*kept = f
		}
		kept.Catalogs = all
	}
	return out
}
