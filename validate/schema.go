package validate

import (
	_ "embed"
	"fmt"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"

	"github.com/fbcat/opm/declcfg"
)

//go:embed schema/fbc.cue
var builtinSchema []byte

// builtinDefs maps each OLM schema to its definition in fbc.cue.
var builtinDefs = map[string]string{
	declcfg.SchemaPackage:      "#Package",
	declcfg.SchemaChannel:      "#Channel",
	declcfg.SchemaBundle:       "#Bundle",
	declcfg.SchemaDeprecations: "#Deprecations",
}

// schemas is one worker's compiled schemas: each CUE context may be used by
// one goroutine only.
type schemas struct {
	ctx      *cue.Context
	stripped *converter // for the built-in schemas
	plain    *converter // for the user's, which may look at long strings
	builtin  map[string]cue.Value
	meta     cue.Value
	user     map[string][]userDef
}

// compile builds a worker's schemas in a new CUE context.
func compile(user *UserSchemas) (*schemas, error) {
	ctx := cuecontext.New()
	v := ctx.CompileBytes(builtinSchema, cue.Filename("fbc.cue"))
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("built-in schema: %w", err)
	}
	s := &schemas{
		ctx:      ctx,
		stripped: newConverter(true),
		plain:    newConverter(false),
		builtin:  map[string]cue.Value{},
		meta:     v.LookupPath(cue.ParsePath("#Meta")),
	}
	for schema, def := range builtinDefs {
		s.builtin[schema] = v.LookupPath(cue.ParsePath(def))
	}
	if user != nil && len(user.files) > 0 {
		defs, err := user.build(ctx)
		if err != nil {
			return nil, err
		}
		s.user = defs
	}
	return s, nil
}
