package validate

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/load"

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

// userDef is a definition from a --schema file that applies to blobs of
// one schema.
type userDef struct {
	name  string // e.g. "#MyThing"
	value cue.Value
}

// UserSchemas are CUE files with definitions for custom (or OLM) schemas:
// every top-level definition whose "schema" field is a concrete string
// applies to the blobs of that schema.
type UserSchemas struct {
	files []string
	mu    sync.Mutex // serialises building the instance in new contexts
}

// LoadUserSchemas finds the .cue files named by paths (files, or
// directories whose .cue files are all taken) and checks that they compile
// and define at least one schema.
func LoadUserSchemas(paths []string) (*UserSchemas, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("--schema %s: %w", p, err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(p, "*.cue"))
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("--schema %s: the directory has no .cue files", p)
		}
		files = append(files, matches...)
	}
	u := &UserSchemas{files: files}
	if len(files) == 0 {
		return u, nil
	}
	defs, err := u.build(cuecontext.New())
	if err != nil {
		return nil, err
	}
	if len(defs) == 0 {
		return nil, fmt.Errorf("--schema %s: no definition has a concrete \"schema\" field, so none applies to any blob (write e.g. #MyThing: {schema: \"example.com.thing\", ...})", strings.Join(paths, ", "))
	}
	return u, nil
}

// Schemas lists the schema names the user's definitions apply to.
func (u *UserSchemas) Schemas() []string {
	if u == nil || len(u.files) == 0 {
		return nil
	}
	defs, err := u.build(cuecontext.New())
	if err != nil {
		return nil
	}
	var out []string
	for s := range defs {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func (u *UserSchemas) build(ctx *cue.Context) (map[string][]userDef, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	insts := load.Instances(u.files, &load.Config{})
	if len(insts) != 1 {
		return nil, fmt.Errorf("--schema: the files must form one CUE package")
	}
	if err := insts[0].Err; err != nil {
		return nil, fmt.Errorf("--schema: %w", err)
	}
	v := ctx.BuildInstance(insts[0])
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("--schema: %w", err)
	}
	iter, err := v.Fields(cue.Definitions(true))
	if err != nil {
		return nil, fmt.Errorf("--schema: %w", err)
	}
	defs := map[string][]userDef{}
	for iter.Next() {
		if !iter.Selector().IsDefinition() {
			continue
		}
		d := iter.Value()
		s, err := d.LookupPath(cue.ParsePath("schema")).String()
		if err != nil || s == "" {
			continue
		}
		defs[s] = append(defs[s], userDef{name: iter.Selector().String(), value: d})
	}
	return defs, nil
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
