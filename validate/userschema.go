package validate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/load"
	"cuelang.org/go/mod/modfile"
	"cuelang.org/go/mod/module"

	"github.com/fbcat/opm/option"
)

// UserSchemas are CUE files with definitions for custom (or OLM) schemas:
// every top-level definition whose "schema" field is a concrete string
// applies to the blobs of that schema.
type UserSchemas struct {
	files []string          // absolute paths
	names map[string]string // absolute path -> the name the caller gave
	dir   string            // where the CUE module, if any, is looked for
	plans map[string]*shapePlan
	mu    sync.Mutex // serialises building the instance in new contexts
}

// userDef is a user's definition that applies to blobs of one schema.
type userDef struct {
	name  string // e.g. "#MyThing"
	value cue.Value
}

// LoadUserSchemas finds the .cue files named by paths (files, or
// directories whose .cue files are all taken) and checks that they compile
// and define at least one schema. The files form one CUE package; when they
// lie in a CUE module (a cue.mod directory beside them or above them),
// they may import its other packages. Nothing is ever downloaded: an import
// of another module is an error, as is anything but CUE's standard library
// outside a module. Errors name the file and line, after the option
// (Options.Schemas) they are about.
func LoadUserSchemas(paths []string) (*UserSchemas, error) {
	u, err := loadUserSchemas(paths)
	if err != nil {
		return nil, option.Errorf(option.Invalid, "%s: %w", option.Name("validate.Options.Schemas"), err)
	}
	return u, nil
}

func loadUserSchemas(paths []string) (*UserSchemas, error) {
	u := &UserSchemas{names: map[string]string{}}
	for _, p := range paths {
		files, err := cueFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			abs, err := filepath.Abs(f)
			if err != nil {
				return nil, err
			}
			if _, dup := u.names[abs]; dup {
				continue
			}
			u.names[abs] = f
			u.files = append(u.files, abs)
		}
	}
	if len(u.files) == 0 {
		return u, nil
	}
	u.dir = filepath.Dir(u.files[0])
	defs, files, err := u.build(cuecontext.New())
	if err != nil {
		return nil, err
	}
	if len(defs) == 0 {
		return nil, fmt.Errorf("%s: no definition has a concrete \"schema\" field, so none applies to any blob (write e.g. #MyThing: {schema: \"example.com.thing\", ...})", strings.Join(paths, ", "))
	}
	var names []string
	for _, ds := range defs {
		for _, d := range ds {
			names = append(names, d.name)
		}
	}
	u.plans = planDefs(files, names)
	return u, nil
}

// cueFiles lists the .cue files path names: itself, or those of a directory.
func cueFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	matches, err := filepath.Glob(filepath.Join(path, "*.cue"))
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("%s: the directory has no .cue files", path)
	}
	return matches, nil
}

// Schemas lists the schema names the user's definitions apply to.
func (u *UserSchemas) Schemas() []string {
	if u == nil || len(u.files) == 0 {
		return nil
	}
	defs, _, err := u.build(cuecontext.New())
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

// build loads the files and compiles them in ctx, offline. It returns
// the definitions that apply to each schema and the files' syntax.
func (u *UserSchemas) build(ctx *cue.Context) (map[string][]userDef, []*ast.File, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	insts := load.Instances(u.files, &load.Config{Dir: u.dir, Registry: offlineRegistry{}})
	if len(insts) != 1 {
		return nil, nil, fmt.Errorf("%s: the files must form one CUE package", u.names[u.files[0]])
	}
	if err := insts[0].Err; err != nil {
		return nil, nil, u.positioned(err)
	}
	v := ctx.BuildInstance(insts[0])
	if err := v.Err(); err != nil {
		return nil, nil, u.positioned(err)
	}
	defs, err := definitions(v)
	return defs, insts[0].Files, err
}

// definitions finds the top-level definitions of v that name a schema.
func definitions(v cue.Value) (map[string][]userDef, error) {
	iter, err := v.Fields(cue.Definitions(true))
	if err != nil {
		return nil, err
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

// positioned turns CUE's errors into one error whose lines each start with
// the file, line and column, files named as the caller named them.
func (u *UserSchemas) positioned(err error) error {
	cwd, _ := os.Getwd()
	var lines []string
	for _, e := range cueerrors.Errors(err) {
		msg := cueerrors.StringWithConfig(e, &cueerrors.Config{Cwd: cwd})
		pos := e.Position()
		if !pos.IsValid() {
			if in := e.InputPositions(); len(in) > 0 {
				pos = in[0]
			}
		}
		if pos.IsValid() {
			msg = fmt.Sprintf("%s:%d:%d: %s", u.fileName(pos.Filename(), cwd), pos.Line(), pos.Column(), msg)
		}
		lines = append(lines, msg)
	}
	if len(lines) == 0 {
		return err
	}
	return &SchemaError{Lines: lines, Err: err}
}

// fileName names a file as the caller did, or relative to the working
// directory when it is below it.
func (u *UserSchemas) fileName(abs, cwd string) string {
	if n, ok := u.names[abs]; ok {
		return n
	}
	if rel, err := filepath.Rel(cwd, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return abs
}

// SchemaError is a user's CUE schema that does not load or compile: one
// line per problem, each starting with its file and line.
type SchemaError struct {
	Lines []string
	Err   error // CUE's errors
}

func (e *SchemaError) Error() string { return strings.Join(e.Lines, "\n") }

func (e *SchemaError) Unwrap() error { return e.Err }

// errNoDownloads is why an import of another CUE module fails.
var errNoDownloads = errors.New("CUE modules are never downloaded while validating: import only CUE's standard library and packages of the schema files' own module")

// offlineRegistry is the CUE module registry of user schemas: it holds no
// module, so that loading them never reaches the network.
type offlineRegistry struct{}

func (offlineRegistry) ModFile(_ context.Context, mv module.Version) (*modfile.File, error) {
	return nil, fmt.Errorf("module %s: %w", mv, errNoDownloads)
}

func (offlineRegistry) Fetch(_ context.Context, mv module.Version) (module.SourceLoc, error) {
	return module.SourceLoc{}, fmt.Errorf("module %s: %w", mv, errNoDownloads)
}

func (offlineRegistry) ModuleVersions(_ context.Context, mpath string) ([]string, error) {
	return nil, fmt.Errorf("module %s: %w", mpath, errNoDownloads)
}
