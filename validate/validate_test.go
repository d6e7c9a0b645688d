package validate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/declcfg"
)

// A valid package: two channels, three bundles.
const goodPackage = `{"schema":"olm.package","name":"foo","defaultChannel":"stable"}
{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v0.1.0"},{"name":"foo.v0.2.0","replaces":"foo.v0.1.0","skipRange":"<0.2.0"}]}
{"schema":"olm.channel","package":"foo","name":"fast","entries":[{"name":"foo.v0.3.0","skips":["foo.v0.2.0"]},{"name":"foo.v0.2.0"}]}
{"schema":"olm.bundle","package":"foo","name":"foo.v0.1.0","image":"quay.io/x/foo:0.1.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.1.0"}},{"type":"olm.gvk","value":{"group":"x.io","kind":"Foo","version":"v1"}}]}
{"schema":"olm.bundle","package":"foo","name":"foo.v0.2.0","image":"quay.io/x/foo:0.2.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.2.0"}}],"relatedImages":[{"name":"op","image":"quay.io/x/op@sha256:0000000000000000000000000000000000000000000000000000000000000000"}]}
{"schema":"olm.bundle","package":"foo","name":"foo.v0.3.0","image":"quay.io/x/foo:0.3.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.3.0"}},{"type":"olm.csv.metadata","value":{"displayName":"Foo","installModes":[{"type":"AllNamespaces","supported":true}],"crdDescriptions":{"owned":[{"name":"foos.x.io","version":"v1","kind":"Foo","specDescriptors":[{"path":"size","x-descriptors":["urn:x"]}]}]}}}]}
`

func run(t *testing.T, files map[string]string, opts ...func(*Options)) *Result {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	o := Options{RootName: "cat"}
	for _, f := range opts {
		f(&o)
	}
	res, err := Validate(context.Background(), fsys, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestValidCatalogsPass(t *testing.T) {
	res := run(t, map[string]string{"foo/index.json": goodPackage})
	if !res.Passed() {
		t.Fatalf("problems: %v", res.Problems)
	}
	cfg, err := os.ReadDir("../testdata/catalog")
	if err != nil {
		t.Fatal(err)
	}
	real := map[string]string{}
	for _, d := range cfg {
		data, _ := os.ReadFile(filepath.Join("../testdata/catalog", d.Name(), "catalog.yaml"))
		real[d.Name()+"/catalog.yaml"] = string(data)
	}
	if res := run(t, real); !res.Passed() {
		t.Fatalf("real catalog rejected: %v", res.Problems)
	}
}

// TestRules breaks the good package in one way per case and checks that
// exactly the expected problems are reported, at the expected lines.
func TestRules(t *testing.T) {
	tests := []struct {
		name    string
		replace [2]string // in goodPackage
		extra   string    // appended
		want    []string  // "line: substring"
	}{
		{"Error/package name", [2]string{`"name":"foo","defaultChannel"`, `"name":"Foo_Bar","defaultChannel"`}, "", []string{"1: invalid package name \"Foo_Bar\"", "1: package has no channels", "2: package \"foo\" is not defined", "3: package \"foo\" is not defined", "4: package \"foo\" is not defined", "5: package \"foo\" is not defined", "6: package \"foo\" is not defined"}},
		{"Error/default channel empty", [2]string{`"defaultChannel":"stable"`, `"defaultChannel":""`}, "", []string{"1: default channel is not set"}},
		{"Error/default channel missing", [2]string{`"defaultChannel":"stable"`, `"defaultChannel":"beta"`}, "", []string{`1: default channel "beta" is not a channel`}},
		{"Error/duplicate package", [2]string{}, `{"schema":"olm.package","name":"foo"}`, []string{"7: duplicate olm.package blob"}},
		{"Error/duplicate channel", [2]string{}, `{"schema":"olm.channel","package":"foo","name":"fast","entries":[{"name":"foo.v0.3.0"}]}`, []string{"7: duplicate channel \"fast\""}},
		{"Error/duplicate bundle", [2]string{}, `{"schema":"olm.bundle","package":"foo","name":"foo.v0.1.0","image":"x","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"9.0.0"}}]}`, []string{"7: duplicate bundle \"foo.v0.1.0\""}},
		{"Error/entry without bundle in first channel", [2]string{`{"name":"foo.v0.1.0"},{"name":"foo.v0.2.0"`, `{"name":"foo.v0.0.9"},{"name":"foo.v0.1.0"},{"name":"foo.v0.2.0"`}, "", []string{`2: entry "foo.v0.0.9" has no olm.bundle blob`, "2: multiple channel heads"}},
		{"Error/channel unknown package", [2]string{}, `{"schema":"olm.channel","package":"bar","name":"x","entries":[{"name":"b"}]}`, []string{`7: package "bar" is not defined`}},
		{"Error/empty channel", [2]string{}, `{"schema":"olm.channel","package":"foo","name":"beta","entries":[]}`, []string{"7: channel has no entries"}},
		{"Error/duplicate entry", [2]string{`{"name":"foo.v0.3.0","skips":["foo.v0.2.0"]},{"name":"foo.v0.2.0"}`, `{"name":"foo.v0.3.0","skips":["foo.v0.2.0"]},{"name":"foo.v0.2.0"},{"name":"foo.v0.2.0"}`}, "", []string{`3: duplicate entry "foo.v0.2.0"`}},
		{"Error/two heads", [2]string{`"replaces":"foo.v0.1.0",`, ``}, "", []string{"2: multiple channel heads found in graph: foo.v0.1.0, foo.v0.2.0"}},
		{"Error/replaces a bundle that does not exist", [2]string{`"replaces":"foo.v0.1.0"`, `"replaces":"foo.v0.1.1"`}, "", []string{
			`2: channel "stable" (package "foo"): entry "foo.v0.2.0" replaces bundle "foo.v0.1.1", which does not exist in package "foo": the entry starts an upgrade chain of its own, so the channel has more than one head; did you mean "foo.v0.1.0" (the head of the other chain)? Fix the name or remove the replaces`,
			"2: multiple channel heads found in graph: foo.v0.1.0, foo.v0.2.0"}},
		{"Error/replaces a pruned bundle is fine", [2]string{`{"name":"foo.v0.1.0"}`, `{"name":"foo.v0.1.0","replaces":"foo.v0.0.9"}`}, "", nil},
		{"Error/cycle", [2]string{`{"name":"foo.v0.1.0"}`, `{"name":"foo.v0.1.0","replaces":"foo.v0.2.0"}`}, "", []string{"2: no channel head"}},
		{"Error/stranded", [2]string{`{"name":"foo.v0.3.0","skips":["foo.v0.2.0"]},{"name":"foo.v0.2.0"}`, `{"name":"foo.v0.3.0","replaces":"foo.v0.2.0"},{"name":"foo.v0.2.0","skips":["foo.v0.0.1"]},{"name":"foo.v0.1.0"}`}, "", []string{"3: multiple channel heads"}},
		{"Error/skips empty", [2]string{`"skips":["foo.v0.2.0"]`, `"skips":["foo.v0.2.0",""]`}, "", []string{`3: channel "fast" (package "foo"): entries[0] ("foo.v0.3.0").skips[1] must not be empty`}},
		{"Error/skipRange", [2]string{`"skipRange":"<0.2.0"`, `"skipRange":"bad"`}, "", []string{`2: channel "stable" (package "foo"): entry "foo.v0.2.0": invalid skipRange "bad"`}},
		{"Error/no olm.package", [2]string{`{"type":"olm.package","value":{"packageName":"foo","version":"0.1.0"}},`, ``}, "", []string{`4: bundle "foo.v0.1.0" (package "foo"): must be exactly one property with type "olm.package", found none`}},
		{"Error/package mismatch", [2]string{`"packageName":"foo","version":"0.1.0"`, `"packageName":"bar","version":"0.1.0"`}, "", []string{`4: bundle "foo.v0.1.0" (package "foo"): olm.package property names package "bar"`}},
		{"Error/version", [2]string{`"version":"0.1.0"`, `"version":"v0.1"`}, "", []string{`4: bundle "foo.v0.1.0" (package "foo"): version "v0.1" is not a valid semantic version`}},
		{"Error/duplicate version", [2]string{`"version":"0.1.0"`, `"version":"0.2.0"`}, "", []string{"1: duplicate versions found in bundles: 0.2.0 (foo.v0.1.0, foo.v0.2.0)"}},
		{"Error/image", [2]string{`"image":"quay.io/x/foo:0.1.0"`, `"image":"Quay.io/X/foo"`}, "", []string{`4: bundle "foo.v0.1.0" (package "foo"): image: invalid image pull spec "Quay.io/X/foo"`}},
		{"Error/image empty", [2]string{`"image":"quay.io/x/foo:0.1.0"`, `"image":""`}, "", []string{"4: bundle image must be set"}},
		{"Error/related image", [2]string{`"image":"quay.io/x/op@sha256:`, `"image":"quay.io/x/op@sha257:`}, "", []string{"5: relatedImages[0].image: invalid image pull spec"}},
		{"Error/not in channel", [2]string{}, `{"schema":"olm.bundle","package":"foo","name":"foo.v9.0.0","image":"x","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"9.0.0"}}]}`, []string{`7: bundle "foo.v9.0.0" (package "foo"): bundle is not in any channel`}},
		{"Error/gvk type", [2]string{`"value":{"group":"x.io","kind":"Foo","version":"v1"}`, `"value":"x.io/v1/Foo"`}, "", []string{`4: bundle "foo.v0.1.0" (package "foo"): properties[1] (olm.gvk).value must be an object, not a string ("x.io/v1/Foo")`}},
		{"Error/null value", [2]string{`"value":{"group":"x.io","kind":"Foo","version":"v1"}`, `"value":null`}, "", []string{"properties[1] (olm.gvk): value is null"}},
		{"Error/csv metadata type", [2]string{`"supported":true`, `"supported":"yes"`}, "", []string{`6: bundle "foo.v0.3.0" (package "foo"): properties[1] (olm.csv.metadata).value.installModes[0].supported must be a boolean, not a string ("yes")`}},
		{"Error/type conflict and missing field together", [2]string{`{"schema":"olm.bundle","package":"foo","name":"foo.v0.1.0","image":"quay.io/x/foo:0.1.0"`, `{"schema":"olm.bundle","package":"foo","image":5`}, "", []string{`4: bundle without a name (package "foo"): name is missing; it is required`, "4: image must be a string, not a number (5)"}},
		{"Error/unknown olm schema", [2]string{}, `{"schema":"olm.channell","package":"foo","name":"x"}`, []string{`7: unknown schema "olm.channell": did you mean "olm.channel"?`}},
		{"Error/release", [2]string{`"version":"0.1.0"}`, `"version":"0.1.0","release":"01"}`}, "", []string{`invalid release "01": segment 0`}},
		{"Error/release name", [2]string{`"version":"0.1.0"}`, `"version":"0.1.0","release":"2"}`}, "", []string{`name "foo.v0.1.0" does not match normalized name "foo-v0.1.0-2"`}},
		{"Error/deprecation without a name", [2]string{}, `{"schema":"olm.deprecations","package":"foo","entries":[{"reference":{"schema":"olm.bundle"},"message":"x"},{"reference":{"schema":"olm.channel","name":""},"message":"y"}]}`, []string{`7: package "foo": entries[0] (olm.bundle).reference.name is missing; it is required: name the bundle to deprecate`, `7: package "foo": entries[1] (olm.channel).reference.name is missing; it is required: name the channel to deprecate`}},
		{"Error/deprecation", [2]string{}, `{"schema":"olm.deprecations","package":"foo","entries":[{"reference":{"schema":"olm.bundle","name":"foo.v9"},"message":"x"},{"reference":{"schema":"olm.channel","name":"nope"},"message":"y"},{"reference":{"schema":"olm.package","name":"foo"},"message":"z"},{"reference":{"schema":"olm.thing"},"message":"w"},{"reference":{"schema":"olm.bundle","name":"foo.v0.1.0"},"message":""}]}`,
			// One line: same-line problems come in message order.
			[]string{`must not name anything`, `cannot deprecate bundle "foo.v9"`, `cannot deprecate channel "nope"`, `cannot deprecate objects of schema "olm.thing"`, `entries[4] (olm.bundle "foo.v0.1.0").message must not be empty`}},
		{"Error/bad bundle objects with other problems", [2]string{`"image":"quay.io/x/foo:0.1.0","properties":[`, `"image":5,"properties":[{"type":"olm.bundle.object","value":{"data":"!!"}},{"type":"olm.bundle.object","value":{"data":"e30="}},{"type":"olm.bundle.object","value":{"data":"Zm9vOiBb"}},`}, "",
			[]string{"4: image must be a string, not a number (5)", "4: properties[0].value.data: not valid base64", "4: properties[2].value.data: not a JSON or YAML document"}},
		{"Error/bundle object shape reported once", [2]string{`"image":"quay.io/x/foo:0.1.0","properties":[`, `"image":"quay.io/x/foo:0.1.0","properties":[{"type":"olm.bundle.object","value":{"data":5}},{"type":"olm.bundle.object","value":{"data":"!!"}},`}, "",
			[]string{"4: properties[0] (olm.bundle.object).value.data must be a string, not a number (5)", "4: properties[1].value.data: not valid base64"}},
		{"Error/bad document skips graph checks", [2]string{}, `{"schema":`, []string{"invalid JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := goodPackage
			if tt.replace[0] != "" {
				if !strings.Contains(data, tt.replace[0]) {
					t.Fatalf("test broken: %q not found", tt.replace[0])
				}
				data = strings.Replace(data, tt.replace[0], tt.replace[1], 1)
			}
			data += tt.extra
			res := run(t, map[string]string{"foo/index.json": data})
			var got []string
			for _, p := range res.Problems {
				got = append(got, p.Error())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				line, msg, _ := strings.Cut(w, ": ")
				if !strings.HasPrefix(got[i], "cat/foo/index.json:"+line) || !strings.Contains(got[i], msg) {
					if !strings.Contains(got[i], w) {
						t.Errorf("problem %d = %q, want line %s and %q", i, got[i], line, msg)
					}
				}
			}
		})
	}
}

// TestLongListsCheckedInParts checks that a list longer than what CUE is
// given at once is checked whole: problems in every part, at their own
// indexes and lines, and problems outside the list once.
func TestLongListsCheckedInParts(t *testing.T) {
	n := 3*maxListLen + 7
	bad := map[int]string{ // index -> entry
		0:              `{"name":""}`,
		maxListLen + 3: `{"replaces":"x"}`,
		2 * maxListLen: `{"name":"b","skips":"c"}`,
		n - 1:          `{"name":5}`,
	}
	var b strings.Builder
	b.WriteString(`{"schema":"olm.channel","package":"foo","name":"","entries":[` + "\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		if e, ok := bad[i]; ok {
			b.WriteString(e)
		} else {
			fmt.Fprintf(&b, `{"name":"foo.v%d"}`, i)
		}
	}
	b.WriteString("\n]}\n")
	got := builtinProblems(t, b.String())
	want := []string{
		"1: name must not be empty",
		`2: entries[0] ("").name must not be empty`,
		fmt.Sprintf("%d: entries[%d].name is missing; it is required", maxListLen+5, maxListLen+3),
		fmt.Sprintf(`%d: entries[%d] ("b").skips must be a list, not a string ("c")`, 2*maxListLen+2, 2*maxListLen),
		fmt.Sprintf("%d: entries[%d].name must be a string, not a number (5)", n+1, n-1),
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTwoLongListsCheckedInParts checks an object with two long lists of
// different lengths: every problem in either is found once, at its index.
func TestTwoLongListsCheckedInParts(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"schema":"olm.bundle","package":"foo","name":"foo.v1","relatedImages":[` + "\n")
	nImages := 2*maxListLen + 1
	for i := range nImages {
		sep := ",\n"
		if i == nImages-1 {
			sep = "\n"
		}
		if i == nImages-1 || i == 5 {
			b.WriteString(`{"image":7}` + sep)
		} else {
			fmt.Fprintf(&b, `{"image":"example.com/i:%d"}%s`, i, sep)
		}
	}
	b.WriteString("],\n" + `"properties":[` + "\n")
	nProps := maxListLen + 2
	for i := range nProps {
		sep := ",\n"
		if i == nProps-1 {
			sep = "\n"
		}
		if i == maxListLen+1 {
			b.WriteString(`{"type":"olm.package","value":{"packageName":"foo","version":1}}` + sep)
		} else {
			fmt.Fprintf(&b, `{"type":"example.com/p","value":%d}%s`, i, sep)
		}
	}
	b.WriteString("]}\n")
	got := builtinProblems(t, b.String())
	want := []string{
		"7: relatedImages[5].image must be a string, not a number (7)",
		fmt.Sprintf("%d: relatedImages[%d].image must be a string, not a number (7)", nImages+1, nImages-1),
		fmt.Sprintf("%d: properties[%d] (olm.package).value.version must be a string, not a number (1)", nImages+4+maxListLen+1, maxListLen+1),
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// builtinProblems checks the one object in data against the built-in
// definitions and returns its problems as "line: message", sorted.
func builtinProblems(t *testing.T, data string) []string {
	t.Helper()
	s, err := compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range s.check(onlyObject(t, data)) {
		got = append(got, fmt.Sprintf("%d: %s", e.Line, e.Message))
	}
	slices.Sort(got)
	return got
}

// onlyObject loads a file holding one object and returns it as validate's
// checks see it.
func onlyObject(t *testing.T, data string) *declcfg.Object {
	t.Helper()
	var obj *declcfg.Object
	_, err := declcfg.WalkFS(context.Background(), fstest.MapFS{"c.json": {Data: []byte(data)}}, func(declcfg.Item) error { return nil },
		declcfg.WithObjectCheck(func() declcfg.ObjectCheck {
			return func(o *declcfg.Object) []*declcfg.Error {
				// The tree is the walk's until the check returns.
				c, v := *o, deepCopy(o.Value)
				c.Value = &v
				obj = &c
				return nil
			}
		}))
	if err != nil || obj == nil {
		t.Fatal(err)
	}
	return obj
}
