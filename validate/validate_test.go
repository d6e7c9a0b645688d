package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
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
		{"Error/deprecation", [2]string{}, `{"schema":"olm.deprecations","package":"foo","entries":[{"reference":{"schema":"olm.bundle","name":"foo.v9"},"message":"x"},{"reference":{"schema":"olm.channel","name":"nope"},"message":"y"},{"reference":{"schema":"olm.package","name":"foo"},"message":"z"},{"reference":{"schema":"olm.thing"},"message":"w"},{"reference":{"schema":"olm.bundle","name":"foo.v0.1.0"},"message":""}]}`,
			// One line: same-line problems come in message order.
			[]string{`must not name anything`, `cannot deprecate bundle "foo.v9"`, `cannot deprecate channel "nope"`, `cannot deprecate objects of schema "olm.thing"`, `entries[4] (olm.bundle "foo.v0.1.0").message must not be empty`}},
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
