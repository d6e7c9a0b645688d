package validate

import (
	_ "embed"
	"fmt"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
)

//go:embed schema/fbc.cue
var fbcSource []byte

// builtinDefs maps each OLM schema to its definition in fbc.cue.
var builtinDefs = map[string]string{
	declcfg.SchemaPackage:      "#Package",
	declcfg.SchemaChannel:      "#Channel",
	declcfg.SchemaBundle:       "#Bundle",
	declcfg.SchemaDeprecations: "#Deprecations",
}

// metaDef is the definition of blobs of other schemas.
const metaDef = "#Meta"

// catalogSchema is a CUE source of the OLM schemas and the plans of its
// definitions, shared by all workers.
type catalogSchema struct {
	src      []byte
	plans    map[string]*shapePlan
	verdicts map[string]*verdict
}

var builtin = sync.OnceValues(func() (*catalogSchema, error) { return newCatalogSchema(fbcSource) })

func newCatalogSchema(src []byte) (*catalogSchema, error) {
	f, err := parser.ParseFile("fbc.cue", src)
	if err != nil {
		return nil, fmt.Errorf("built-in schema: %w", err)
	}
	names := []string{metaDef}
	for _, d := range builtinDefs {
		names = append(names, d)
	}
	return &catalogSchema{src: src, plans: planDefs([]*ast.File{f}, names), verdicts: verdictsOf(f, names)}, nil
}

// schemas is one worker's compiled schemas: each CUE context may be used by
// one goroutine only.
type schemas struct {
	ctx     *cue.Context
	builtin map[string]*definition
	meta    *definition
	user    map[string][]*definition
	tape    value.Tape // for quick
	runs    int        // the values handed to CUE, for tests
	// keyed says that quick was asked: the shapes of blobs a verdict
	// passes are remembered for it from then on. (A catalog of YAML
	// never asks, and its blobs are not hashed.)
	keyed bool
}

// definition is a compiled CUE definition with its worker's converter.
type definition struct {
	name  string // for messages: "" for the built-in ones, else e.g. "#MyThing"
	value cue.Value
	conv  *converter
	// listsInParts says that every list of the definition is [...#X], so
	// that long lists may be checked in parts (validateInParts). True for
	// the built-in definitions (TestBuiltinListsAreOpen keeps it so); a
	// user's schema may constrain a list as a whole and is checked whole.
	listsInParts bool
	// verdict, when the definition has one, says without CUE that a blob
	// is valid (see verdict).
	verdict *verdict
}

// compile builds a worker's schemas in a new CUE context.
func compile(user *UserSchemas) (*schemas, error) {
	cs, err := builtin()
	if err != nil {
		return nil, err
	}
	return compileWith(cs, user)
}

// compileWith builds a worker's schemas from the OLM schemas of cs.
func compileWith(cs *catalogSchema, user *UserSchemas) (*schemas, error) {
	ctx := cuecontext.New()
	v := ctx.CompileBytes(cs.src, cue.Filename("fbc.cue"))
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("built-in schema: %w", err)
	}
	lookup := func(name string) *definition {
		return &definition{value: v.LookupPath(cue.ParsePath(name)), conv: newConverter(cs.plans[name]), listsInParts: true, verdict: cs.verdicts[name]}
	}
	s := &schemas{ctx: ctx, builtin: map[string]*definition{}, meta: lookup(metaDef)}
	for schema, name := range builtinDefs {
		s.builtin[schema] = lookup(name)
	}
	if user != nil && len(user.files) > 0 {
		defs, _, err := user.build(ctx)
		if err != nil {
			return nil, err
		}
		s.user = map[string][]*definition{}
		for schema, ds := range defs {
			for _, d := range ds {
				s.user[schema] = append(s.user[schema], &definition{name: d.name, value: d.value, conv: newConverter(user.plans[d.name])})
			}
		}
	}
	return s, nil
}
