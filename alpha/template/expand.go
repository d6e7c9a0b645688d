package template

import (
	"context"
	"errors"
	"fmt"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
)

// Expand expands a template of the given format (see Detect) into the
// catalog it stands for, rendering the bundle images it references with
// br. The
// catalog is in upstream's order once written with declcfg.Write. Every
// problem found is reported, as Errors, before any image is pulled when
// the template itself is at fault.
func Expand(ctx context.Context, kind Kind, in Input, br BundleRenderer) (*declcfg.DeclarativeConfig, error) {
	return ExpandWith(ctx, kind, in, br, Options{})
}

// Options are the choices of ExpandWith beyond upstream's current
// behaviour.
type Options struct {
	// SemverPerChannel expands semver templates as opm releases before
	// the current linking did, which catalogs committed then still hold:
	// each generated channel linked on its own (the newest bundle of each
	// minor version skips the lower ones of its channel, in version order,
	// and replaces and skips the newest of the minor version before it in
	// the same channel), and no description or icon on the package.
	SemverPerChannel bool
}

// ExpandWith is Expand with options.
func ExpandWith(ctx context.Context, kind Kind, in Input, br BundleRenderer, opts Options) (*declcfg.DeclarativeConfig, error) {
	src := source{file: in.Name, kind: kind}
	doc, schema, err := header(in)
	if err != nil {
		var p *Problem
		if errors.As(err, &p) {
			p.Kind = kind
		}
		return nil, err
	}
	if schema != kind.Schema() {
		node, _ := member(&doc.value, "schema")
		if node == nil {
			node = &value.Value{Line: doc.line}
		}
		what := "missing"
		if schema != "" {
			what = fmt.Sprintf("%q", schema)
		}
		return nil, src.errorf(node, "", "schema is %s, but a %s template's schema is %q", what, kind, kind.Schema())
	}
	switch kind {
	case Basic:
		return expandBasic(ctx, src, doc, br)
	case Semver:
		return expandSemver(ctx, src, doc, br, opts.SemverPerChannel)
	case Substitutes:
		return expandSubstitutes(ctx, src, doc, br)
	}
	return nil, fmt.Errorf("unknown template type %q", kind)
}

// entries reads the entries of a basic or substitutes template: catalog
// objects, typed as the catalog loader types them. An empty list expands to
// an empty catalog, as upstream's does; a template without the entries
// key is an error (upstream gives nothing, which hides a misspelt key).
func entries(src source, doc *document) ([]declcfg.Item, Errors) {
	list, node, err := listMember(&doc.value, "entries")
	if err != nil {
		return nil, Errors{src.wrap(node, "", err)}
	}
	if node == nil {
		return nil, Errors{src.errorf(&value.Value{Line: doc.line}, "", "the template has no \"entries\": list the catalog objects (olm.package, olm.channel, olm.bundle, ...) under it, or give \"entries: []\" for an empty catalog")}
	}
	var problems Errors
	items := make([]declcfg.Item, len(list))
	for i := range list {
		e := &list[i]
		entry := fmt.Sprintf("entries[%d]", i)
		if e.Kind != value.Object {
			problems = append(problems, src.errorf(e, entry, "must be a catalog object, not %s", value.Describe(e)))
			continue
		}
		it, terr := declcfg.TypeValue(e, declcfg.Pos{File: src.file, Line: int(e.Line)})
		if terr != nil {
			msg := terr.Message
			if s := terr.Subject(); s != "" {
				msg = s + ": " + msg
			}
			problems = append(problems, problemAt(src.file, terr.Line, src.kind, entry, errors.New(msg)))
			continue
		}
		items[i] = it
	}
	return items, problems
}
