package report

import (
	"fmt"
	"io"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/option"
)

// WriteConflicts writes, after an expansion's plan (see Write), a
// warning for each bundle whose copies in two catalogs differ.
func WriteConflicts(errOut io.Writer, res *author.Expansion) {
	for _, c := range res.Conflicts {
		fmt.Fprintf(errOut, "warning: %s: rendering offline keeps each catalog's copy: fix the wrong one by hand\n", c)
	}
}

// WriteDrift writes an expansion made to check the committed catalogs:
// each catalog that differs from its template (where, and what) and each
// bundle whose copies in two catalogs differ; with JSON, {"passed",
// "differ": [{"path", "line", "what"}], "conflicts"}, else a line each
// and the summary on errOut, with how to see the difference.
func WriteDrift(out, errOut io.Writer, res *author.Expansion, o Options) error {
	plan := res.Plan
	where := map[string]author.Difference{}
	for _, d := range res.Differences {
		where[d.Path] = d
	}
	if o.JSON {
		return writeDriftJSON(out, res, where)
	}
	for _, c := range plan.Changes {
		switch d, ok := where[c.Path]; {
		case c.Created:
			fmt.Fprintf(out, "%s: is missing: its template maps to it\n", c.Path)
		case ok:
			fmt.Fprintf(out, "%s:%d: differs from what its template renders: %s\n", c.Path, d.Line, d.What)
		default:
			fmt.Fprintf(out, "%s: differs from what its template renders\n", c.Path)
		}
	}
	for _, c := range res.Conflicts {
		fmt.Fprintf(out, "%s (edited by hand?)\n", c)
	}
	fmt.Fprintln(errOut, plan.Summary)
	if len(plan.Changes) > 0 {
		fmt.Fprintf(errOut, "note: see the difference with %s, then fix the templates or render them\n", optionSeeDrift.In(o.Words))
	}
	return nil
}

// optionSeeDrift is how to see the difference of drifted catalogs: the
// plan of expanding them again, not applied.
const optionSeeDrift option.Name = "author.Repo.Expand"

func writeDriftJSON(w io.Writer, res *author.Expansion, where map[string]author.Difference) error {
	type drift struct {
		Path string `json:"path"`
		Line int    `json:"line,omitempty"`
		What string `json:"what,omitempty"`
	}
	doc := struct {
		Passed    bool     `json:"passed"`
		Differ    []drift  `json:"differ"`
		Conflicts []string `json:"conflicts"`
	}{Passed: !res.Drifted(), Differ: []drift{}, Conflicts: res.Conflicts}
	if doc.Conflicts == nil {
		doc.Conflicts = []string{}
	}
	for _, c := range res.Plan.Changes {
		d := where[c.Path]
		doc.Differ = append(doc.Differ, drift{c.Path, d.Line, d.What})
	}
	return jsonout.Write(w, doc)
}
