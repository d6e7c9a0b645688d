package lint

import (
	"fmt"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/osdk/suites"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/registryv1/openshift"
)

// What a rule is given (a bundle on its own, or one package of a
// catalog), and the findings it makes of a bundle.

// bundleCheck is a bundle linted on its own: a bundle directory or a
// bundle image.
type bundleCheck struct {
	b *bundle
	// previous is the bundle it upgrades from (Options.Previous), if
	// given.
	previous   *bundle
	noWebhooks bool
	pairs      *crdcompat.Pairs
	// requiredFields says that the pipeline's check_required_fields
	// checks the bundle too (a bundle directory of an operator directory,
	// the rule running): csv-fields leaves it the fields it finds wrong.
	requiredFields bool
	// osdkSuites says that both operator-sdk suites run (osdk-operatorhub
	// and osdk-operatorframework): they say what csv-fields would of a
	// bundle directory.
	osdkSuites bool
	// osdk runs operator-sdk's suites for the run; osdkRun is their
	// verdict on this bundle, asked for by the first of the two rules to
	// need it (nil when it could not be had: the run fails).
	osdk      *osdkRunner
	osdkAsked bool
	osdkRun   *suites.Result
	// unchanged is set, in a run over a change compared with a git ref,
	// for a bundle directory the change left alone.
	unchanged bool
	// history is what the bundle is to its operator's history (see
	// history.go), "" for news.
	history string
	// notes keeps the notes said once per run.
	notes *onceNotes
}

// catalog is a loaded catalog.
type catalog struct {
	// name is the catalog directory or image, for findings about the
	// catalog as a whole.
	name string
	// label names the catalog in findings (Finding.Catalogs): the name
	// ci.yaml maps it by, or its directory's in catalogs/ (such as
	// v4.16); "" for other catalogs.
	label string
	// ocp is the OpenShift version of a catalog in catalogs/v4.x/, nil
	// for any.
	ocp   *openshift.Version
	model *model.Catalog
	// dirs are the bundle directories of the operator directory the
	// catalog is mapped from, by CSV name (nil for a catalog on its own).
	dirs map[string]*bundle
	// released are, for an operator directory's catalog, the OpenShift
	// versions of its mapped catalogs that hold each bundle, by name (nil
	// for a catalog on its own).
	released map[string][]openshift.Version
	// base is the baseline catalog, nil without one.
	base *model.Catalog
	// problems are what opm validate finds wrong with the catalog.
	problems declcfg.ErrorList
	// installOnly says that the catalog's upgrades are history of which
	// only what breaks installs is reported (see history.go): its CRD
	// upgrades are compared by their shapes (crdcompat.InstallChanges).
	installOnly bool
}

// packageCheck is one package of a catalog.
type packageCheck struct {
	// leftAlone reports whether a bundle is a directory the change left
	// alone (see linter.leftAlone).
	leftAlone  func(*bundle) bool
	cat        *catalog
	pkg        *model.Package
	noWebhooks bool
	bundles    map[string]*bundle
	pairs      *crdcompat.Pairs
}

// bundle returns the catalog's bundle of that name, its objects decoded,
// or nil if the package has none.
func (c *packageCheck) bundle(name string) *bundle {
	if b, ok := c.bundles[name]; ok {
		return b
	}
	var b *bundle
	if mb := c.pkg.Bundles[name]; mb != nil && mb.Decl != nil {
		b = catalogBundle(mb.Decl)
		_ = b.load() // a bundle whose objects cannot be read is checked without them
	}
	c.bundles[name] = b
	return b
}

// source returns what is known of a bundle: its directory in the
// operator directory when there is one (with its annotations, and
// positions in its manifests), else the catalog's bundle.
func (c *packageCheck) source(name string) *bundle {
	if d := c.cat.dirs[name]; d != nil {
		return d
	}
	return c.bundle(name)
}

// objectFinding is a finding about an object of a bundle, at the line of
// the node n (nil: the object) in its manifest. In a catalog it is at the
// bundle's name: line, and names the object: the lines of an
// olm.bundle.object (one base64 or JSON line) are not the manifest's.
func objectFinding(rule string, sev finding.Severity, b *bundle, o *object, n *value.Value, format string, args ...any) finding.Finding {
	f := bundleFinding(rule, sev, b, o.file, o.at(n), format, args...)
	if o.inCatalog && b.decl != nil {
		f.File, f.Line = b.catalogPos()
		f.Object = o.kind + " " + o.name
	}
	return f
}

// bundleFinding is a finding about a bundle at a place.
func bundleFinding(rule string, sev finding.Severity, b *bundle, file string, line int, format string, args ...any) finding.Finding {
	return finding.Finding{Rule: rule, Severity: sev, Package: b.pkg, Bundle: b.name, File: file, Line: line, Message: fmt.Sprintf(format, args...)}
}
