// Expanding the templates of several operators again, or checking that
// their catalogs match them: the use case of `opm alpha catalog render`.

package author

import (
	"context"
	"fmt"

	"github.com/fbcat/opm/catalogrepo"
)

// ExpandRequest names the operators whose templates to expand again:
// those Packages lists, or every operator when it is empty. Check expands
// to compare only: the summary then says what differs.
type ExpandRequest struct {
	Packages []string
	Check    bool
}

// Validate checks that each operator Packages names can be one: the name
// of a directory under operators/.
func (r ExpandRequest) Validate() error {
	for _, name := range r.Packages {
		if err := catalogrepo.CheckOperatorName(name); err != nil {
			return err
		}
	}
	return nil
}

// Expansion is what expanding the templates of operators again gives: one plan of the
// catalogs that differ from their templates (or are missing), and the
// bundles whose committed copies differ between catalogs, which
// expanding offline cannot tell apart from a hand edit (see
// Package.Conflicts).
type Expansion struct {
	Plan      *Plan
	Conflicts []string
	// Differences are, when checking, where each committed catalog of the
	// plan first differs from what its template renders, in the plan's
	// order (a missing catalog has none).
	Differences []Difference
}

// Drifted reports whether a catalog differs from its template or a
// bundle's copies differ between catalogs.
func (r *Expansion) Drifted() bool {
	return len(r.Plan.Changes) > 0 || len(r.Conflicts) > 0
}

// Expand expands the templates of the operators req names into their
// catalogs again (see Package.Expand), in the order given, and gathers
// the plans into one. The first operator that fails stops it.
func (r *Repo) Expand(ctx context.Context, req ExpandRequest, opts Options) (*Expansion, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if err := r.CheckRoot(); err != nil {
		return nil, err
	}
	names := req.Packages
	if len(names) == 0 {
		var err error
		if names, err = r.Model().Packages(); err != nil {
			return nil, needRoot(err)
		}
	}
	out := &Expansion{Plan: &Plan{Root: r.Root}}
	for _, name := range names {
		p, err := r.Open(ctx, name)
		if err != nil {
			return nil, err
		}
		one, differ, err := p.expand(ctx, opts)
		if err != nil {
			return nil, err
		}
		if req.Check {
			if out.Differences, err = appendDifferences(out.Differences, differ); err != nil {
				return nil, err
			}
		}
		out.Plan.Changes = append(out.Plan.Changes, one.Changes...)
		out.Plan.Incomplete = append(out.Plan.Incomplete, one.Incomplete...)
		out.Conflicts = append(out.Conflicts, p.Conflicts()...)
	}
	out.Plan.Summary = expandSummary(len(names), len(out.Plan.Changes), req.Check)
	if req.Check && len(out.Conflicts) > 0 {
		out.Plan.Summary = fmt.Sprintf("%s; %s with copies that differ between catalogs: fix the wrong copy by hand",
			out.Plan.Summary, Plural(len(out.Conflicts), "bundle"))
	}
	return out, nil
}

// expandSummary says in one line what expanding pkgs operators found:
// changed catalogs that differ, expanded again or (check) to be looked
// at: the plan of expanding them again shows the difference.
func expandSummary(pkgs, changed int, check bool) string {
	switch {
	case changed == 0:
		return fmt.Sprintf("all catalogs of %s match their templates", Plural(pkgs, "operator"))
	case check:
		verb := "differ from their templates"
		if changed == 1 {
			verb = "differs from its template"
		}
		return fmt.Sprintf("%s %s", Plural(changed, "catalog"), verb)
	}
	return fmt.Sprintf("%s rendered again from their templates", Plural(changed, "catalog"))
}
