package validate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
)

// valueSchema is fbc.cue with constraints on values, as a later version
// might have them: the shape cache must not hide them.
func valueSchema(t *testing.T) *catalogSchema {
	t.Helper()
	src := string(fbcSource)
	for _, r := range [][2]string{
		{"#ChannelEntry: {\n\tname!:      #NonEmpty", "#ChannelEntry: {\n\tname!:      #NonEmpty & =~\"^[a-z0-9.-]+$\""},
		{"schema:   \"olm.bundle\"\n\tname!:    #NonEmpty", "schema:   \"olm.bundle\"\n\tname!:    #NonEmpty & =~\"^[a-z0-9.-]+$\""},
		{"#RelatedImage: {\n\tname?:  string", "#RelatedImage: {\n\tname?:  =~\"^[a-z0-9-]*$\""},
		{"packageName!: #NonEmpty\n\tversion!:     string", "packageName!: #NonEmpty\n\tversion!:     =~\"^[0-9]+[.][0-9]+[.][0-9]+\""},
		{"#GVKValue: {\n\tgroup?:   string", "#GVKValue: {\n\tgroup?:   \"\" | =~\"[.]\""},
	} {
		if !strings.Contains(src, r[0]) {
			t.Fatalf("fbc.cue has no %q", r[0])
		}
		src = strings.Replace(src, r[0], r[1], 1)
	}
	cs, err := newCatalogSchema([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range builtinDefs {
		if cs.plans[name] == nil {
			t.Fatalf("%s may not be cached", name)
		}
	}
	return cs
}

// catalogObjects are the blobs of testdata/catalog.
func catalogObjects(t *testing.T) []*declcfg.Object {
	t.Helper()
	var objs []*declcfg.Object
	_, err := declcfg.WalkFS(context.Background(), os.DirFS("../testdata/catalog"), func(declcfg.Item) error { return nil },
		declcfg.WithConcurrency(1), declcfg.WithObjectCheck(func() declcfg.ObjectCheck {
			return func(o *declcfg.Object) []*declcfg.Error {
				// The tree is the walk's until the check returns.
				c, v := *o, deepCopy(o.Value)
				c.Value = &v
				objs = append(objs, &c)
				return nil
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// withValues copies obj, changing the strings of the fields called name
// (every other one), version and group: the copies differ from obj only
// in values the constraints of valueSchema look at.
func withValues(obj *declcfg.Object, variant int) *declcfg.Object {
	v := deepCopy(obj.Value)
	n := 0
	var walk func(v *value.Value)
	walk = func(v *value.Value) {
		for i := range v.Items {
			walk(&v.Items[i])
		}
		for i := range v.Fields {
			f := &v.Fields[i]
			if f.Value.Kind == value.String {
				switch {
				case f.Key == "name" && variant == 1:
					if n++; n%2 == 0 {
						f.Value.Str = strings.ToUpper(f.Value.Str)
					}
				case f.Key == "name" && variant == 2:
					f.Value.Str = strings.ToUpper(f.Value.Str)
				case f.Key == "version" && variant == 3:
					f.Value.Str = "v" + f.Value.Str
				case f.Key == "group" && variant == 3:
					f.Value.Str = strings.ReplaceAll(f.Value.Str, ".", "-")
				}
			}
			walk(&f.Value)
		}
	}
	walk(&v)
	c := *obj
	c.Value = &v
	return &c
}

// TestShapeCacheValueConstraints checks blobs that differ only in values
// the schema constrains, in several orders and spread over workers: each
// verdict must be the one a fresh worker gives.
func TestShapeCacheValueConstraints(t *testing.T) {
	cs := valueSchema(t)
	var objs []*declcfg.Object
	for _, o := range catalogObjects(t) {
		for variant := range 4 {
			objs = append(objs, withValues(o, variant))
		}
	}
	truth := make([][]string, len(objs))
	failing := 0
	fresh, err := compileWith(cs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range objs {
		forget(fresh)
		truth[i] = messages(fresh.check(o))
		if len(truth[i]) > 0 {
			failing++
		}
	}
	if failing == 0 || failing == len(objs) {
		t.Fatalf("%d of %d blobs fail: the test tells nothing", failing, len(objs))
	}
	r := rand.New(rand.NewPCG(3, 4))
	orders := map[string][]int{"forward": {}, "backward": {}, "shuffled": {}}
	for i := range objs {
		orders["forward"] = append(orders["forward"], i)
		orders["backward"] = append(orders["backward"], len(objs)-1-i)
	}
	orders["shuffled"] = r.Perm(len(objs))
	for name, order := range orders {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/%d workers", name, workers), func(t *testing.T) {
				ws := make([]*schemas, workers)
				for w := range ws {
					var err error
					if ws[w], err = compileWith(cs, nil); err != nil {
						t.Fatal(err)
					}
				}
				for n, i := range order {
					if got := messages(ws[n%workers].check(objs[i])); !slices.Equal(got, truth[i]) {
						t.Fatalf("blob %d: %q, a fresh worker says %q\n%s", i, got, truth[i], value.AppendCompact(nil, objs[i].Value))
					}
				}
			})
		}
	}
}

// TestShapeCacheIsSound checks that remembering valid shapes never changes
// a verdict: every object, changed at random, is checked by a worker that
// has seen many others (cached) and by a fresh one, and the problems must
// be the same; with the built-in schema and with one that constrains
// values.
func TestShapeCacheIsSound(t *testing.T) {
	objs := catalogObjects(t)
	builtinSchema, err := builtin()
	if err != nil {
		t.Fatal(err)
	}
	for name, cs := range map[string]*catalogSchema{"built-in": builtinSchema, "values": valueSchema(t)} {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			cached, err := compileWith(cs, nil)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := compileWith(cs, nil)
			if err != nil {
				t.Fatal(err)
			}
			exact, err := compileWith(cs, nil)
			if err != nil {
				t.Fatal(err)
			}
			uncached(exact)
			for round := 0; round < 400; round++ {
				obj := objs[r.IntN(len(objs))]
				mutated := *obj
				v := deepCopy(obj.Value)
				if round%4 != 0 {
					mutate(r, &v, 0)
				}
				mutated.Value = &v
				forget(fresh)
				a, b := messages(cached.check(&mutated)), messages(fresh.check(&mutated))
				if !slices.Equal(a, b) {
					t.Fatalf("round %d: cached check %v, fresh check %v\nobject: %s", round, a, b, value.AppendCompact(nil, &v))
				}
				if e := messages(exact.check(&mutated)); !slices.Equal(a, e) {
					t.Fatalf("round %d: cached check %v, without the cache %v\nobject: %s", round, a, e, value.AppendCompact(nil, &v))
				}
			}
		})
	}
}

// TestShapeCacheRepeatedParts checks a blob whose parts repeat shapes,
// which CUE sees once each: the problems of every copy are reported, as
// without the cache.
func TestShapeCacheRepeatedParts(t *testing.T) {
	const good = `{"type":"olm.gvk","value":{"group":"x.io","kind":"X","version":"v1"}}`
	const bad = `{"type":"olm.gvk","value":{"group":1,"kind":"X","version":"v1"}}`
	const missing = `{"type":"olm.gvk"}`
	for _, props := range [][]string{
		{good, good, good},
		{good, bad, good, bad, bad},
		{bad, bad},
		{missing, good, missing},
		{bad, missing, bad, missing},
	} {
		b := `{"schema":"olm.bundle","name":"a","package":"p","properties":[` + strings.Join(props, ",") + `]}`
		v, err := value.ParseJSON([]byte(b))
		if err != nil {
			t.Fatal(err)
		}
		obj := &declcfg.Object{Schema: declcfg.SchemaBundle, Value: &v}
		cached, err := compile(nil)
		if err != nil {
			t.Fatal(err)
		}
		exact, _ := compile(nil)
		uncached(exact)
		got, want := messages(cached.check(obj)), messages(exact.check(obj))
		if !slices.Equal(got, want) {
			t.Errorf("%s: cached check %q, without the cache %q", b, got, want)
		}
		if n := strings.Count(b, `"group":1`) + strings.Count(b, missing); len(want) != n {
			t.Errorf("%s: %d problems %q, want %d", b, len(want), want, n)
		}
	}
}

// uncached makes every definition of s check blobs in full, every time,
// with CUE alone.
func uncached(s *schemas) {
	s.meta.conv, s.meta.verdict = newConverter(nil), nil
	for _, d := range s.builtin {
		d.conv, d.verdict = newConverter(nil), nil
	}
}

// TestShapeCacheConflicts checks that a part is not remembered as valid
// from a blob with conflicts, where CUE leaves out missing fields.
func TestShapeCacheConflicts(t *testing.T) {
	const props = `,"properties":[{"type":"x"}]}`
	blobs := []string{
		`{"schema":"olm.bundle","name":"a","package":"p","image":5` + props,
		`{"schema":"olm.bundle","name":"b","package":"p","image":"quay.io/x/y:1"` + props,
	}
	cached, err := compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blobs {
		v, err := value.ParseJSON([]byte(b))
		if err != nil {
			t.Fatal(err)
		}
		obj := &declcfg.Object{Schema: declcfg.SchemaBundle, Value: &v}
		fresh, _ := compile(nil)
		got, want := messages(cached.check(obj)), messages(fresh.check(obj))
		if !slices.Equal(got, want) {
			t.Errorf("%s: cached check %q, fresh check %q", b, got, want)
		}
	}
}

// TestUserSchemaCacheAcrossWorkers validates widgets that differ only in
// values a user's schema constrains, spread over files and workers: the
// problems must be the same whichever worker sees which file first.
func TestUserSchemaCacheAcrossWorkers(t *testing.T) {
	dir := t.TempDir()
	schema := `package custom

#Widget: {
	schema: "example.com.widget"
	name!:  =~"^[a-z]+$"
	spec?: {
		size?: int
		tags?: [...=~"^[a-z]+$"]
	}
	...
}
`
	if err := os.WriteFile(filepath.Join(dir, "widget.cue"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	user, err := LoadUserSchemas([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if user.plans["#Widget"] == nil {
		t.Fatal("#Widget may not be cached: the test tells nothing")
	}
	r := rand.New(rand.NewPCG(5, 6))
	files := map[string]string{}
	var want []string
	for f := range 6 {
		var b strings.Builder
		name := fmt.Sprintf("w%d.json", f)
		for line := 1; line <= 30; line++ {
			widget, tag := "abc", "x"
			switch r.IntN(3) {
			case 1:
				widget = "Abc"
				want = append(want, fmt.Sprintf("cat/%s:%d: name", name, line))
			case 2:
				tag = "X"
				want = append(want, fmt.Sprintf("cat/%s:%d: spec.tags[1]", name, line))
			}
			fmt.Fprintf(&b, `{"schema":"example.com.widget","name":%q,"spec":{"size":3,"tags":["a",%q]}}`+"\n", widget, tag)
		}
		files[name] = b.String()
	}
	for _, workers := range []int{1, 2, 4} {
		for range 3 {
			res := run(t, files, func(o *Options) { o.Schemas, o.Concurrency = user, workers })
			var got []string
			for _, p := range res.Problems {
				field, _, _ := strings.Cut(p.Message, ":")
				got = append(got, fmt.Sprintf("%s:%d: %s", p.File, p.Line, field))
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d workers: problems\n%s\nwant\n%s", workers, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// TestConversionIsLinear checks that the memory a blob's conversion takes
// grows with its size, not with the square of its depth.
func TestConversionIsLinear(t *testing.T) {
	nested := func(depth int) *value.Value {
		leaf := value.Value{Kind: value.String, Str: "x"}
		for range depth {
			leaf = value.Value{Kind: value.Object, Fields: []value.Field{{Key: "a", Value: leaf}}}
		}
		return &value.Value{Kind: value.Object, Fields: []value.Field{
			{Key: "name", Value: value.Value{Kind: value.String, Str: "b"}},
			{Key: "properties", Value: value.Value{Kind: value.Array, Items: []value.Value{{Kind: value.Object, Fields: []value.Field{
				{Key: "type", Value: value.Value{Kind: value.String, Str: "olm.csv.metadata"}},
				{Key: "value", Value: value.Value{Kind: value.Object, Fields: []value.Field{{Key: "annotations", Value: leaf}}}},
			}}}}},
			{Key: "x", Value: leaf},
		}}
	}
	cs, err := builtin()
	if err != nil {
		t.Fatal(err)
	}
	convs := map[string]*converter{"cached": newConverter(cs.plans["#Bundle"]), "exact": newConverter(nil)}
	for name, c := range convs {
		t.Run(name, func(t *testing.T) {
			cost := func(depth int) uint64 {
				v := nested(depth)
				return allocated(func() {
					c.prepare(v, declcfg.SchemaBundle)
					c.input(v, declcfg.SchemaBundle)
				})
			}
			small, large := cost(2000), cost(8000)
			if large > 6*small {
				t.Errorf("depth 2000 takes %d bytes, 8000 takes %d: more than linear", small, large)
			}
		})
	}
}

// forget empties the caches of a worker's schemas.
func forget(s *schemas) {
	clear(s.meta.conv.valid)
	for _, d := range s.builtin {
		clear(d.conv.valid)
	}
	for _, ds := range s.user {
		for _, d := range ds {
			clear(d.conv.valid)
		}
	}
}

// allocated is the number of bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func messages(errs []*declcfg.Error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Message)
	}
	slices.Sort(out)
	return out
}

func deepCopy(v *value.Value) value.Value {
	c := *v
	if v.Items != nil {
		c.Items = make([]value.Value, len(v.Items))
		for i := range v.Items {
			c.Items[i] = deepCopy(&v.Items[i])
		}
	}
	if v.Fields != nil {
		c.Fields = make([]value.Field, len(v.Fields))
		for i := range v.Fields {
			c.Fields[i] = value.Field{Key: v.Fields[i].Key, Value: deepCopy(&v.Fields[i].Value)}
		}
	}
	return c
}

// mutate changes one random node: another type, an empty string, a
// removed or renamed field, or another value of a string.
func mutate(r *rand.Rand, v *value.Value, depth int) {
	switch {
	case v.Kind == value.Object && len(v.Fields) > 0 && r.IntN(3) > 0:
		f := &v.Fields[r.IntN(len(v.Fields))]
		switch r.IntN(6) {
		case 0:
			v.Fields = slices.DeleteFunc(v.Fields, func(x value.Field) bool { return x.Key == f.Key })
		case 1:
			f.Key = strings.ToUpper(f.Key[:1]) + f.Key[1:]
			v.Fields = value.NormalizeFields(v.Fields)
		case 2:
			f.Key = fmt.Sprint(f.Key, r.IntN(3)) // a new name, where a pattern may allow any
			v.Fields = value.NormalizeFields(v.Fields)
		default:
			mutate(r, &f.Value, depth+1)
		}
		return
	case v.Kind == value.Array && len(v.Items) > 0 && r.IntN(3) > 0:
		mutate(r, &v.Items[r.IntN(len(v.Items))], depth+1)
		return
	case v.Kind == value.String && v.Str != "" && r.IntN(2) > 0:
		v.Str = strings.ToUpper(v.Str[:1]) + v.Str[1:]
		return
	}
	switch r.IntN(6) {
	case 0:
		*v = value.Value{Kind: value.String, Str: ""}
	case 1:
		*v = value.Value{Kind: value.Number, Num: float64(r.IntN(3))}
	case 2:
		*v = value.Value{Kind: value.Null}
	case 3:
		*v = value.Value{Kind: value.Array}
	case 4:
		*v = value.Value{Kind: value.Object}
	default:
		*v = value.Value{Kind: value.String, Str: fmt.Sprint("s", r.IntN(3))}
	}
}

// TestShapeCacheComposesParts checks that a bundle made of parts that
// passed in other bundles, with annotations under other names, is not
// handed to CUE, and that a new problem in such a bundle is still found,
// as a fresh worker finds it.
func TestShapeCacheComposesParts(t *testing.T) {
	const (
		gvk     = `{"type":"olm.gvk","value":{"group":"x.io","kind":"X","version":"v1"}}`
		pkg     = `{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}`
		badGVK  = `{"type":"olm.gvk","value":{"group":1,"kind":"X","version":"v1"}}`
		csvMeta = `{"type":"olm.csv.metadata","value":{"displayName":"P","annotations":{%s}}}`
	)
	bundle := func(name string, props ...string) *declcfg.Object {
		b := `{"schema":"olm.bundle","name":"` + name + `","package":"p","image":"quay.io/p/b:` + name + `","properties":[` + strings.Join(props, ",") + `]}`
		v, err := value.ParseJSON([]byte(b))
		if err != nil {
			t.Fatal(err)
		}
		return &declcfg.Object{Schema: declcfg.SchemaBundle, Value: &v}
	}
	w, err := compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range w.builtin {
		d.verdict = nil // the shapes alone
	}
	for _, b := range []*declcfg.Object{
		bundle("a", gvk, fmt.Sprintf(csvMeta, `"createdAt":"2024-01-01","capabilities":"Basic Install"`)),
		bundle("b", pkg),
	} {
		if errs := w.check(b); len(errs) > 0 {
			t.Fatalf("%s: %v", value.AppendCompact(nil, b.Value), messages(errs))
		}
	}
	runs := w.runs
	composed := bundle("c", pkg, gvk, gvk, fmt.Sprintf(csvMeta, `"containerImage":"quay.io/p/op:1","repository":"https://example.com/p"`))
	if errs := w.check(composed); len(errs) > 0 || w.runs != runs {
		t.Errorf("a bundle of known parts: %v, %d values handed to CUE, want none", messages(errs), w.runs-runs)
	}
	for _, b := range []*declcfg.Object{
		bundle("d", pkg, gvk, fmt.Sprintf(csvMeta, `"containerImage":"quay.io/p/op:1","support":7`)),
		bundle("e", pkg, badGVK, fmt.Sprintf(csvMeta, `"containerImage":"quay.io/p/op:1"`)),
		bundle("f", gvk, `{"type":"olm.csv.metadata","value":{"displayName":"P","annotations":{"x":"y"},"keywords":[1]}}`),
	} {
		fresh, _ := compile(nil)
		got, want := messages(w.check(b)), messages(fresh.check(b))
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%s: cached check %q, fresh check %q (want problems)", value.AppendCompact(nil, b.Value), got, want)
		}
	}
}
