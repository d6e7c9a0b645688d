package validate

import (
	"math/rand/v2"
	"testing"

	"cuelang.org/go/cue/parser"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
)

// TestVerdictsCompiled checks that fbc.cue stays inside the fragment
// verdicts compile: every built-in definition has one.
func TestVerdictsCompiled(t *testing.T) {
	cs, err := builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append([]string{metaDef}, "#Package", "#Channel", "#Bundle", "#Deprecations") {
		if cs.verdicts[name] == nil {
			t.Errorf("%s has no verdict", name)
		}
	}
}

// TestVerdictOutsideTheFragment checks that definitions with what
// verdicts do not compile get none.
func TestVerdictOutsideTheFragment(t *testing.T) {
	for _, src := range []string{
		"#D: {a: string}",             // closed
		"#D: {a: string | int, ...}",  // a disjunction
		"#D: {a: =~\"^x\", ...}",      // a regular expression
		"#D: {a: [string, int], ...}", // a list that is not [...X]
		"#D: {a: b, b: string, ...}",  // a reference to a field
		"#D: {a: *\"x\" | string, ...}",
		"#D: {[=~\"^x\"]: string, ...}",
		"#D: {a: #E, ...}\n#E: {b: #D, ...}", // recursion
	} {
		f, err := parser.ParseFile("d.cue", src)
		if err != nil {
			t.Fatal(err)
		}
		if v := verdictsOf(f, []string{"#D"}); v["#D"] != nil {
			t.Errorf("%q: compiled a verdict", src)
		}
	}
}

// TestVerdictAgreesWithCUE checks that a verdict says "valid" only where
// CUE finds nothing, on the test catalog's objects changed at random and
// on hand-made edge cases, and that it does say "valid" for every valid
// object of the test catalog (else it would save nothing).
func TestVerdictAgreesWithCUE(t *testing.T) {
	exact, err := compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	uncached(exact)
	withVerdicts, err := compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	verdictOf := func(o *declcfg.Object) (*verdict, bool) {
		d, ok := withVerdicts.builtin[o.Schema]
		if !ok {
			d = withVerdicts.meta
		}
		return d.verdict, d.verdict.valid(o.Value, kindFor(o.Schema))
	}
	objs := catalogObjects(t)
	for _, o := range objs {
		if len(exact.check(o)) == 0 {
			if _, ok := verdictOf(o); !ok {
				t.Errorf("a valid object the verdict refuses: %s", value.AppendCompact(nil, o.Value))
			}
		}
	}
	for _, b := range verdictEdgeCases {
		v, err := value.ParseJSON([]byte(b))
		if err != nil {
			t.Fatal(err)
		}
		schema := ""
		if s := lookup(&v, "schema"); s != nil && s.Kind == value.String {
			schema = s.Str
		}
		objs = append(objs, &declcfg.Object{Schema: schema, Value: &v})
	}
	r := rand.New(rand.NewPCG(5, 6))
	agreed, rounds := 0, 3000
	if testing.Short() {
		rounds = 600
	}
	for round := range rounds + len(verdictEdgeCases) {
		var obj *declcfg.Object
		if round < len(verdictEdgeCases) {
			obj = objs[len(objs)-len(verdictEdgeCases)+round]
		} else {
			c := *objs[r.IntN(len(objs))]
			v := deepCopy(c.Value)
			for range r.IntN(3) {
				mutate(r, &v, 0)
			}
			c.Value = &v
			obj = &c
		}
		vd, ok := verdictOf(obj)
		if vd == nil || !ok {
			continue
		}
		agreed++
		if errs := exact.check(obj); len(errs) > 0 && !onlyNullValues(errs, obj) {
			t.Fatalf("the verdict says valid, CUE says %q\n%s", messages(errs), value.AppendCompact(nil, obj.Value))
		}
	}
	if agreed < rounds/10 {
		t.Fatalf("the verdict said valid in %d rounds only: the test tells little", agreed)
	}
}

// onlyNullValues reports whether every problem is one check reports
// itself, beside the definitions: a null property value.
func onlyNullValues(errs []*declcfg.Error, obj *declcfg.Object) bool {
	return len(errs) == len(nullPropertyValues(obj))
}

var verdictEdgeCases = []string{
	`{"schema":"olm.package"}`,
	`{"schema":"olm.package","name":""}`,
	`{"schema":"olm.package","name":5}`,
	`{"schema":"olm.package","Name":"p","icon":"x"}`,
	`{"schema":"olm.package","name":"p","icon":{"base64data":1}}`,
	`{"schema":"olm.package","name":"p","properties":[{"type":"x"}]}`,
	`{"schema":"olm.package","name":"p","properties":[{"type":"","value":1}]}`,
	`{"schema":"olm.package","name":"p","properties":{}}`,
	`{"schema":"olm.channel","name":"c","package":"p","entries":[{"name":"a","skips":[""]}]}`,
	`{"schema":"olm.channel","name":"c","package":"p","entries":[{"name":"a","replaces":null}]}`,
	`{"schema":"olm.channel","name":"c","package":"p","entries":[{"replaces":"b"}]}`,
	`{"schema":"olm.channel","name":"c","package":null}`,
	`{"schema":"olm.bundle","name":"b","package":"p","image":""}`,
	`{"schema":"olm.bundle","name":"b","package":"p","relatedImages":[{"name":1}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.package","value":{"packageName":"p"}}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.package","value":{"packageName":"","version":"1"}}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.gvk","value":{"group":1}}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.gvk","value":null}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.gvk","VALUE":{"kind":"K"}}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.csv.metadata","value":{"annotations":{"a":1}}}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.csv.metadata","value":{"apiServiceDefinitions":{"owned":[{"containerPort":2147483648}]}}}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.csv.metadata","value":{"apiServiceDefinitions":{"owned":[{"containerPort":1.5}]}}}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.csv.metadata","value":{"apiServiceDefinitions":{"owned":[{"containerPort":-2147483648}]}}}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.csv.metadata","value":{"installModes":[{"supported":"yes"}]}}]}`,
	`{"schema":"olm.bundle","name":"b","package":"p","properties":[{"type":"olm.csv.metadata","value":{"crdDescriptions":{"owned":[{"specDescriptors":[{"value":null,"x-descriptors":[1]}]}]}}}]}`,
	`{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":"olm.bundle"}}]}`,
	`{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":""},"message":"m"}]}`,
	`{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":"olm.package"},"message":"m"}]}`,
	`{"schema":"example.com.thing","name":5}`,
	`{"schema":""}`,
	`{"schema":"example.com.thing","package":["p"]}`,
}
