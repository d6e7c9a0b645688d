package lint

import (
	"cmp"
	"path/filepath"
	"slices"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/layout"
	"github.com/fbcat/opm/lint/pipeline"
)

// The hosted pipeline's checks (lint/pipeline) run on operator
// directories, where they have what the pipeline reads: the operator's
// ci.yaml, every bundle directory, the catalogs its ci.yaml maps and the
// repository's config.yaml. The pipeline checks the bundle a pull request
// brings; lint checks every bundle directory, and a baseline marks what
// the change did not bring as existing (a bundle directory the change
// left alone keeps the findings the change made of it: see
// view.inOperatorFindings).

// pipelineRules are the pipeline's checks as rules.
var pipelineRules = pipelineTable()

// pipelineTable makes a rule of each of the pipeline's checks.
func pipelineTable() []Rule {
	var out []Rule
	for _, pr := range pipeline.Rules() {
		r := Rule{ID: pr.ID, Severity: pr.Severity, Description: pr.Description, Help: pr.Help, Check: pr.Check, profiles: profilesOf(pr.Suite)}
		if f := pr.Operator; f != nil {
			r.operator = func(c *operatorCheck) []finding.Finding { return f(c.op) }
		}
		if f := pr.Bundle; f != nil {
			r.inOperator = func(c *operatorCheck, b *bundle) []finding.Finding { return f(c.op, c.bundleOf(b)) }
		}
		if f := pr.Catalog; f != nil {
			r.mapped = func(c *operatorCheck, cat *catalog) []finding.Finding { return f(c.op, catalogOf(cat)) }
		}
		out = append(out, r)
	}
	return out
}

// profilesOf are the profiles that run a suite's checks.
func profilesOf(s pipeline.Suite) []config.Profile {
	switch s {
	case pipeline.SuiteCommunity:
		return inCommunity
	case pipeline.SuiteISV:
		return inCertified
	}
	return inCommon
}

// operatorCheck is an operator directory as the pipeline's checks see it,
// and the bundles lint read, as they see them.
type operatorCheck struct {
	op      *pipeline.Operator
	bundles map[*bundle]*pipeline.Bundle
	real    func(string) string
	// facts are what release-config.yaml is checked against (nil for an
	// operator without file-based catalogs).
	facts *repoconfig.ReleaseFacts
}

// readOperator reads what the pipeline's checks need of an operator
// directory besides its bundles.
func (l *linter) readOperator(dir, root, name string) *operatorCheck {
	ci, repo := filepath.Join(dir, "ci.yaml"), filepath.Join(root, layout.RepoConfig)
	return &operatorCheck{
		op: &pipeline.Operator{Dir: dir, Name: name, Root: root,
			CI: pipeline.ReadConfig(l.view.real(ci), ci), Repo: pipeline.ReadConfig(l.view.real(repo), repo)},
		bundles: map[*bundle]*pipeline.Bundle{},
		real:    l.view.real,
	}
}

// setBundles gives the checks the bundle directories, and the bundles
// the operator's catalogs hold without one.
func (c *operatorCheck) setBundles(dirs []*bundle, p *catalogrepo.Package) {
	if p.CI != nil {
		facts := p.ReleaseFacts()
		c.facts = &facts
	}
	byName := map[string]bool{}
	for _, b := range dirs {
		c.op.Bundles = append(c.op.Bundles, c.bundleOf(b))
		byName[b.name] = true
	}
	for _, cat := range p.Catalogs {
		if cat.Config == nil {
			continue
		}
		for i := range cat.Config.Bundles {
			b := &cat.Config.Bundles[i]
			if !byName[b.Name] {
				byName[b.Name] = true
				c.op.Released = append(c.op.Released, pipeline.Released{Name: b.Name, Package: b.Package})
			}
		}
	}
}

// bundleOf is a bundle directory as the checks see it, made once.
func (c *operatorCheck) bundleOf(b *bundle) *pipeline.Bundle {
	if pb := c.bundles[b]; pb != nil {
		return pb
	}
	rc := filepath.Join(b.dir, "release-config.yaml")
	pb := &pipeline.Bundle{Dir: b.dir, Name: b.name, Package: b.pkg,
		CSV: b.csv.root(), CSVFile: b.csv.file, CSVLine: b.csv.line,
		Annotations: b.annotations.Values, AnnotationsFile: b.annotationsFile(),
		ReleaseConfig: pipeline.ReadConfig(c.real(rc), rc)}
	for _, o := range b.objects {
		pb.Manifests = append(pb.Manifests, pipeline.Manifest{File: o.file, Kind: o.kind, APIVersion: o.apiVersion, Line: o.line})
	}
	c.bundles[b] = pb
	return pb
}

// catalogOf is a mapped catalog as the checks see it: its bundles in the
// file's order.
func catalogOf(cat *catalog) *pipeline.Catalog {
	out := &pipeline.Catalog{Name: filepath.Base(filepath.Dir(filepath.Dir(cat.name))), File: cat.name}
	for _, p := range cat.model.Packages {
		for _, b := range p.Bundles {
			if b.Decl != nil {
				out.Bundles = append(out.Bundles, b.Decl)
			}
		}
	}
	slices.SortFunc(out.Bundles, func(a, b *declcfg.Bundle) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line))
	})
	return out
}

// operatorRulesOn reports whether a rule runs that checks an operator
// directory as a whole (the pipeline's, and release-check).
func (l *linter) operatorRulesOn() bool {
	for _, r := range l.rules {
		if r.operator != nil || r.inOperator != nil || r.mapped != nil {
			return true
		}
	}
	return false
}

// operatorFindings runs the pipeline's operator rules and, on each bundle
// directory, its rules of a bundle in its operator (those that run on
// the bundle's history h tells: see linter.runsOn).
func (l *linter) operatorFindings(c *operatorCheck, dirs []*bundle, h *history) []finding.Finding {
	var out []finding.Finding
	for _, r := range l.rules {
		if r.operator != nil {
			out = append(out, r.stamp(r.operator(c))...)
		}
	}
	for _, b := range dirs {
		out = append(out, l.view.inOperatorFindings(b, func(b *bundle) []finding.Finding {
			var fs []finding.Finding
			for _, r := range l.rules {
				if r.inOperator != nil && l.runsOn(r.ID, l.aloneOr(b, h.of(b))) {
					fs = append(fs, r.stamp(r.inOperator(c, b))...)
				}
			}
			return fs
		})...)
	}
	return out
}

// stamp names the rule's pipeline check in its findings.
func (r Rule) stamp(fs []finding.Finding) []finding.Finding {
	for i := range fs {
		fs[i].Check = r.Check
	}
	return fs
}

// mappedFindings runs the pipeline's rules of a catalog the operator's
// ci.yaml maps.
func (l *linter) mappedFindings(c *operatorCheck, cat *catalog) []finding.Finding {
	if c == nil {
		return nil
	}
	var out []finding.Finding
	for _, r := range l.rules {
		if r.mapped != nil {
			out = append(out, r.stamp(r.mapped(c, cat))...)
		}
	}
	return out
}

// explains reports whether the pipeline's checks of ci.yaml find an
// error in it: catalogrepo refuses such an operator directory, and the
// findings then say what is wrong while lint goes on without its
// catalogs.
func (c *operatorCheck) explains(l *linter) bool {
	if c == nil {
		return false
	}
	for _, r := range l.rules {
		if r.ID != pipeline.RuleCISchema && r.ID != pipeline.RuleCatalogMapping {
			continue
		}
		for _, f := range r.operator(c) {
			if f.Severity == finding.Error {
				return true
			}
		}
	}
	return false
}
