package author

import (
	"bytes"
	"context"
	"fmt"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/validate"
)

// edited are a verb's new template texts.
type edited map[*catalogrepo.Template][]byte

// plan turns edited templates into a plan: the templates, and every
// catalog mapped to a changed template expanded again, validated, and
// checked not to overwrite a hand edit.
func (p *Package) plan(ctx context.Context, e edited, src *Bundles, opts Options) (*Plan, error) {
	return p.planChecked(ctx, e, nil, src, opts, nil)
}

// planChecked is plan with templates checked against other texts (see
// based), and a check of the expanded catalogs, made before they are
// validated.
func (p *Package) planChecked(ctx context.Context, e edited, base based, src *Bundles, opts Options, check func([]*Expanded) error) (*Plan, error) {
	plan := &Plan{Root: p.Repo.Root}
	var cats []*catalogrepo.Catalog
	for _, t := range p.Templates {
		data, ok := e[t]
		changed := ok && (t.Data == nil || !bytes.Equal(data, t.Data))
		if _, again := base[t]; !changed && !again {
			continue
		}
		if changed {
			plan.add(t.Path, KindTemplate, t.Data, text{data})
		}
		cats = append(cats, t.Catalogs...)
	}
	if len(cats) == 0 {
		return plan, nil
	}
	if err := p.checkDrift(ctx, cats, src, opts.Force, base); err != nil {
		return nil, err
	}
	rendered, err := p.expandAll(ctx, cats, func(c *catalogrepo.Catalog) []byte { return e[c.Template] }, src, opts.Style)
	if err != nil {
		return nil, err
	}
	if check != nil {
		if err := check(rendered); err != nil {
			return nil, err
		}
	}
	if err := validateAll(ctx, rendered); err != nil {
		return nil, err
	}
	for _, r := range rendered {
		if err := plan.addExpanded(r); err != nil {
			return nil, err
		}
	}
	return plan, nil
}

// validateAll validates expanded catalogs and writes their bytes, a few
// at a time, and returns the first refusal in their order.
func validateAll(ctx context.Context, rendered []*Expanded) error {
	cats := make([]*catalogrepo.Catalog, len(rendered))
	byCat := map[*catalogrepo.Catalog]*Expanded{}
	for i, r := range rendered {
		cats[i] = r.Catalog
		byCat[r.Catalog] = r
	}
	_, err := forEach(ctx, cats, func(c *catalogrepo.Catalog) (struct{}, error) {
		r := byCat[c]
		if err := validateExpanded(ctx, r); err != nil {
			return struct{}{}, err
		}
		_, err := r.text()
		return struct{}{}, err
	})
	return err
}

// addExpanded records an expanded catalog's change.
func (p *Plan) addExpanded(r *Expanded) error {
	t, err := r.text()
	if err != nil {
		return err
	}
	n := len(p.Changes)
	p.addDigested(r.Catalog.Path, KindCatalog, r.Catalog.Committed(), r.Catalog.Digest(), t)
	if r.gap != nil && len(p.Changes) > n {
		p.addGap(r.Catalog.Path, r.gap)
	}
	return nil
}

// checkDrift matches each committed catalog with its template as it is
// (which also tells how the catalog was expanded, see Match), and refuses
// unless forced when one is not what the template expands to: writing it
// again would lose what was edited by hand.
func (p *Package) checkDrift(ctx context.Context, cats []*catalogrepo.Catalog, src *Bundles, force bool, base based) error {
	var existing []*catalogrepo.Catalog
	for _, c := range cats {
		if c.Committed() && c.Template.Data != nil {
			existing = append(existing, c)
		}
	}
	before, err := p.matchAll(ctx, existing, src, base)
	if err != nil {
		return fmt.Errorf("rendering the templates as they are, to check that the catalogs match them: %w", err)
	}
	if force {
		return nil
	}
	return p.refuseDrift(before)
}

// validateExpanded refuses an expanded catalog that opm validate would
// reject.
func validateExpanded(ctx context.Context, r *Expanded) error {
	if r.Catalog.Valid() {
		ok, err := quickValid(ctx, r)
		if ok || err != nil {
			return err
		}
	}
	data, err := r.Bytes()
	if err != nil {
		return err
	}
	res, err := catalogrepo.ValidateFile(ctx, r.Catalog.Path, data, validate.Options{Pool: r.pool})
	if err != nil {
		return err
	}
	if !res.Passed() {
		return catalogrepo.Refuse("the result would not be a valid catalog, so nothing was written:\n%v", res.Problems)
	}
	return nil
}

// quickValid checks a catalog expanded from a committed catalog that is
// valid by what differs from it: the blobs that are not the committed
// ones, each on its own, and the checks across blobs on the whole. It is
// what validating the whole would find; false means it found something,
// and the whole is validated again to say where.
func quickValid(ctx context.Context, r *Expanded) (bool, error) {
	var buf bytes.Buffer
	if err := declcfg.Write(newObjects(r.Catalog.Config, r.Config), &buf, declcfg.FormatYAML); err != nil {
		return false, err
	}
	res, err := catalogrepo.ValidateFile(ctx, r.Catalog.Path, buf.Bytes(), validate.Options{ObjectsOnly: true, Pool: r.pool})
	if err != nil || !res.Passed() {
		return false, err
	}
	return len(validate.CheckModel(r.Config)) == 0, nil
}

// newObjects is what of an expanded catalog is not in the committed one:
// every object but the bundles that are the committed ones.
func newObjects(committed, rendered *declcfg.DeclarativeConfig) *declcfg.DeclarativeConfig {
	out := *rendered
	out.Bundles = nil
	old := bundlesByName(committed)
	for i := range rendered.Bundles {
		if b := &rendered.Bundles[i]; !sameBundle(old[b.Name], b) {
			out.Bundles = append(out.Bundles, *b)
		}
	}
	return &out
}

// Expand expands every mapped template of the package into its catalogs
// again, with the bundles opts says (opts.Force is moot: expanding is
// what overwrites a hand edit). The plan holds the catalogs that differ from what is
// committed (or are missing); every one of them is validated.
func (p *Package) Expand(ctx context.Context, opts Options) (*Plan, error) {
	plan, _, err := p.expand(ctx, opts)
	return plan, err
}

// expand is Expand, which also returns the catalogs that differ (see
// Expanded.difference).
func (p *Package) expand(ctx context.Context, opts Options) (*Plan, []*Expanded, error) {
	src := p.sourceWith(opts)
	plan := &Plan{Root: p.Repo.Root}
	var cats []*catalogrepo.Catalog
	for _, c := range p.Catalogs {
		switch {
		case c.Template.Data != nil:
			cats = append(cats, c)
		case c.Committed():
			return nil, nil, catalogrepo.Refuse("%s maps catalog %s to template %s, which does not exist: restore the template, or remove the catalog and its mapping", p.CI.File, c.Path, c.Template.Path)
		}
		// Neither template nor catalog: nothing released there yet.
	}
	rendered, err := p.matchAll(ctx, cats, src, nil)
	if err != nil {
		return nil, nil, err
	}
	var differ []*Expanded
	for _, r := range rendered {
		if !r.same {
			differ = append(differ, r.Expanded)
		}
	}
	if err := validateAll(ctx, differ); err != nil {
		return nil, nil, err
	}
	for _, r := range differ {
		if err := plan.addExpanded(r); err != nil {
			return nil, nil, err
		}
	}
	n := len(plan.Changes)
	switch {
	case n == 0:
		plan.Summary = fmt.Sprintf("%s: all %s match their templates", p.Name, Plural(len(cats), "catalog"))
	default:
		plan.Summary = fmt.Sprintf("%s: %d of %s differ from their templates", p.Name, n, Plural(len(cats), "catalog"))
	}
	return plan, differ, nil
}
