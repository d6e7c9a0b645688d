package pipeline

import (
	"slices"
	"strings"

	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/lint/finding"
)

// The operator's name: in a bundle's annotations, its CSV's name and its
// directory, and across the operator's bundles (check_operator_name), and
// one CSV name for all bundles of an operator not using FBC
// (check_operator_name_unique).
//
// The operator's other bundles are its bundle directories and, beside
// the pipeline, the bundles its catalogs hold that have no directory: a
// copy of a repository that keeps released bundles only in its catalogs
// still has them, and a bundle is the operator's first only when neither
// has another. Where the bundle directories are kept, as in the
// community repositories, the two agree.

// The rules of the operator's name.
const (
	RuleOperatorName       = "operator-name"
	RuleOperatorNameUnique = "operator-name-unique"
)

// names are the two operator names of a bundle; csvOK is false when its
// CSV's name has no dot (the pipeline cannot read a name from it).
type names struct {
	metadata, csv string
	csvOK         bool
}

// csvOperatorName is the operator name of a CSV's name: what comes
// before its first dot.
func csvOperatorName(name string) (string, bool) {
	op, _, ok := strings.Cut(name, ".")
	return op, ok
}

// namesOf are the names of every bundle of the operator: its directories
// then its released bundles without one.
func (o *Operator) namesOf() []names {
	var out []names
	for _, b := range o.Bundles {
		csv, ok := csvOperatorName(b.Name)
		out = append(out, names{b.Package, csv, ok})
	}
	for _, r := range o.Released {
		csv, ok := csvOperatorName(r.Name)
		out = append(out, names{r.Package, csv, ok})
	}
	return out
}

// operatorName is check_operator_name for the bundle directory b.
func operatorName(o *Operator, b *Bundle) []finding.Finding {
	pkgNode, pkgLine := b.annotation(labels.Package)
	if pkgNode == nil || b.Package == "" {
		return []finding.Finding{inBundle(RuleOperatorName, finding.Error, b, b.AnnotationsFile, pkgLine, "Bundle does not define the operator name in annotations.yaml")}
	}
	csvName, ok := csvOperatorName(b.Name)
	if !ok {
		return []finding.Finding{atCSV(RuleOperatorName, finding.Error, b, b.csv("metadata", "name"), "Invalid operator name in CSV for %s: metadata.name %q has no dot", o.ref(b), b.Name)}
	}
	all := o.namesOf()
	self := slices.Index(o.Bundles, b)
	var allMeta, allCSV, otherMeta, otherCSV []string
	for i, n := range all {
		allMeta = addName(allMeta, n.metadata)
		if n.csvOK {
			allCSV = addName(allCSV, n.csv)
		}
		if i != self {
			otherMeta = addName(otherMeta, n.metadata)
			if n.csvOK {
				otherCSV = addName(otherCSV, n.csv)
			}
		}
	}
	others := len(all) > 1
	var out []finding.Finding
	if others {
		out = append(out, consistency(b, b.Package, allMeta, otherMeta, "from annotations.yaml", b.AnnotationsFile, pkgLine)...)
		out = append(out, consistency(b, csvName, allCSV, otherCSV, "from the CSV", b.CSVFile, b.at(b.csv("metadata", "name")))...)
	}
	sev := finding.Error
	if others {
		sev = finding.Warning
	}
	if b.Package != csvName {
		out = append(out, inBundle(RuleOperatorName, sev, b, b.AnnotationsFile, pkgLine,
			"Operator name from annotations.yaml (%s) does not match the name defined in the CSV (%s)", b.Package, csvName))
	}
	if b.Package != o.Name {
		out = append(out, inBundle(RuleOperatorName, sev, b, b.AnnotationsFile, pkgLine,
			"Operator name from annotations.yaml (%s) does not match the operator's directory name (%s)", b.Package, o.Name))
	}
	return out
}

// consistency compares a bundle's name with the other bundles': an error
// when they all have another one, a warning when they do not agree.
func consistency(b *Bundle, mine string, all, others []string, from, file string, line int) []finding.Finding {
	if len(others) == 1 {
		if others[0] != mine {
			return []finding.Finding{inBundle(RuleOperatorName, finding.Error, b, file, line,
				"Operator name %s (%s) does not match the name defined in other bundles (%s)", from, mine, others[0])}
		}
		return nil
	}
	slices.Sort(all)
	return []finding.Finding{inBundle(RuleOperatorName, finding.Warning, b, file, line,
		"Operator name %s is not consistent across bundles: %s", from, pyList(all))}
}

// addName adds a name to a set of names.
func addName(set []string, n string) []string {
	if slices.Contains(set, n) {
		return set
	}
	return append(set, n)
}

// operatorNameUnique is check_operator_name_unique (skipped for FBC
// operators): the bundle directories' CSVs name more than one operator.
func operatorNameUnique(o *Operator) []finding.Finding {
	if o.fbc() {
		return nil
	}
	var seen []string
	for _, b := range o.Bundles {
		n, _ := csvOperatorName(b.Name)
		seen = addName(seen, n)
	}
	if len(seen) < 2 {
		return nil
	}
	slices.Sort(seen)
	return []finding.Finding{o.finding(RuleOperatorNameUnique, finding.Error, o.Dir, 0, "Bundles use multiple operator names: %s", pySet(seen))}
}
