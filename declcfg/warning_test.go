package declcfg

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// loadWarnings loads fsys, which must have no problems, and returns its
// warnings.
func loadWarnings(t *testing.T, fsys fstest.MapFS) []Warning {
	t.Helper()
	var mu sync.Mutex
	var ws []Warning
	_, errs := load(t, fsys, WithWarnings(func(w Warning) {
		mu.Lock()
		ws = append(ws, w)
		mu.Unlock()
	}))
	if len(errs) > 0 {
		t.Fatalf("problems: %v", errs)
	}
	return ws
}

// warningLines loads fsys and returns its warnings as strings, sorted.
func warningLines(t *testing.T, fsys fstest.MapFS) []string {
	t.Helper()
	ws := loadWarnings(t, fsys)
	SortWarnings(ws)
	var got []string
	for _, w := range ws {
		got = append(got, w.String())
	}
	return got
}

// TestLoadWarnings covers the data upstream loses without a word: each
// case loads, and says what is lost, where.
func TestLoadWarnings(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	tests := []struct {
		name string
		data string
		want []string // substrings, one per warning, in order
	}{
		{"bom before one json object", bom + pkgJSON + "\n", nil},
		{"bom before a json stream", bom + pkgJSON + "\n" + `{"schema":"x.y"}` + "\n" + `{"schema":"x.z"}` + "\n",
			[]string{"c.json:2: warning: the file starts with a byte order mark (BOM), so it is read as YAML, which keeps only the first of its 3 JSON objects: the 2 objects from this one on are ignored; remove the BOM"}},
		{"bom before pretty json", bom + "{\n  \"schema\": \"x.y\"\n}\n{\n  \"schema\": \"x.z\"\n}\n",
			[]string{"c.json:4: warning: the file starts with a byte order mark (BOM), so it is read as YAML, which keeps only the first of its 2 JSON objects: this object is ignored;"}},
		{"bom before yaml", bom + "schema: x.y\n---\nschema: x.z\n", nil},
		{"unknown fields", `{"schema":"olm.package","name":"foo","extra":1,"icon":{"base64data":"","size":2}}` + "\n" +
			`{"schema":"olm.channel","package":"foo","name":"s","entries":[{"name":"a","weight":3}]}` + "\n" +
			`{"schema":"olm.bundle","package":"foo","name":"a","image":"i","properties":[{"type":"t","value":1,"note":"n"}],"relatedImages":[{"image":"j","digest":"d"}]}` + "\n" +
			`{"schema":"olm.deprecations","package":"foo","entries":[{"reference":{"schema":"olm.bundle","name":"a","why":1},"message":"m"}]}` + "\n" +
			`{"schema":"x.y","extra":1}` + "\n",
			[]string{
				`c.json:1:46: warning: package "foo": unknown field "extra" is dropped: olm.package has no such field`,
				`c.json:1:79: warning: package "foo": unknown field "icon.size" is dropped`,
				`c.json:2:84: warning: channel "s" (package "foo"): unknown field "entries[0].weight" is dropped: olm.channel has no such field`,
				`c.json:3:106: warning: bundle "a" (package "foo"): unknown field "properties[0].note" is dropped`,
				`c.json:3:151: warning: bundle "a" (package "foo"): unknown field "relatedImages[0].digest" is dropped`,
				`c.json:4:110: warning: package "foo": unknown field "entries[0].reference.why" is dropped: olm.deprecations has no such field`,
			}},
		{"keys in another case are known", `{"schema":"olm.package","Name":"foo","DEFAULTCHANNEL":"s"}`, nil},
		{"rounded integers", `{"schema":"x.y","a":9007199254740993,"b":9007199254740992,"c":-12345678901234567890,"d":1e30,"e":100000000000000000000,"f":0.1}` + "\n" +
			"schema: olm.package\nname: foo\nproperties:\n- type: t\n  value: {n: 18446744073709551615}\n",
			[]string{
				`c.json:1:21: warning: number 9007199254740993 is beyond 2^53 and is rounded to 9007199254740992 when the catalog is rendered or served; write it as a string ("9007199254740993") to keep every digit`,
				`c.json:1:63: warning: number -12345678901234567890 is beyond 2^53 and is rounded to -12345678901234567000`,
				`c.json:6:14: warning: package "foo": number 18446744073709551615 is beyond 2^53 and is rounded to 18446744073709552000`,
			}},
		{"blobs without a package", `{"schema":"olm.channel","package":"","name":"s"}` + "\n" + `{"schema":"olm.bundle","name":"b"}` + "\n" +
			`{"schema":"olm.deprecations"}` + "\n" + `{"schema":"olm.package"}` + "\n" + `{"schema":"x.y","package":""}` + "\n",
			[]string{
				`c.json:1: warning: channel "s": this olm.channel blob has no package, so it is left out of rendered catalogs; set "package"`,
				`c.json:2: warning: bundle "b": this olm.bundle blob has no package`,
				`c.json:3: warning: this olm.deprecations blob has no package`,
				`c.json:4: warning: this olm.package blob has no name, so it is left out of rendered catalogs; set "name"`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := warningLines(t, fstest.MapFS{"c.json": file(tt.data)})
			if len(got) != len(tt.want) {
				t.Fatalf("warnings:\n%s\nwant %d", strings.Join(got, "\n"), len(tt.want))
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("warning %d:\n%s\nwant it to contain\n%s", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestLoadWithoutWarnings checks that the loader reads the same catalog
// whether or not warnings are asked for.
func TestLoadWithoutWarnings(t *testing.T) {
	fsys := fstest.MapFS{"c.json": file("\xef\xbb\xbf" + pkgJSON + "\n" + `{"schema":"x.y","n":9007199254740993,"extra":1}` + "\n")}
	plain, errs := load(t, fsys)
	warned, werrs := load(t, fsys, WithWarnings(func(Warning) {}))
	if len(errs) > 0 || len(werrs) > 0 {
		t.Fatal(errs, werrs)
	}
	if len(plain.Packages) != 1 || len(plain.Others) != 0 || len(warned.Packages) != 1 || len(warned.Others) != 0 {
		t.Errorf("loaded %+v and %+v, want the first object only, as upstream", plain, warned)
	}
}

// TestGroupWarnings checks that warnings of one cause make one line.
func TestGroupWarnings(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, `{"schema":"olm.bundle","package":"foo","name":"b%d","extra":1,"entries":[{"x":1},{"x":2}]}`+"\n", i)
	}
	ws := loadWarnings(t, fstest.MapFS{"a.json": file(b.String()), "b.json": file(`{"schema":"olm.bundle","package":"foo","name":"c","extra":1}`)})
	var got []string
	for _, g := range GroupWarnings(ws) {
		got = append(got, g.String())
	}
	want := []string{
		`a.json:1:72: warning: bundle "b0" (package "foo"): unknown field "entries" is dropped: olm.bundle has no such field, so rendering and serving the catalog leave it out; remove it, or keep the data in a property (and 999 more like it in this file)`,
		`a.json:1:60: warning: bundle "b0" (package "foo"): unknown field "extra" is dropped: olm.bundle has no such field, so rendering and serving the catalog leave it out; remove it, or keep the data in a property (and 1000 more like it, in 2 files)`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDuplicateKeys covers blobs that hold a key twice: a repeated
// "schema" is two objects run together, and the warning says which
// separator is missing and where the second object starts; any other
// repeated key loses its earlier value.
func TestDuplicateKeys(t *testing.T) {
	tests := []struct {
		name, data string
		want       []string
	}{
		{"yaml documents without ---", "schema: olm.package\nname: foo\ndefaultChannel: stable\nschema: olm.channel\npackage: foo\nname: stable\nentries: []\n",
			[]string{`c.json:4:1: warning: duplicate key "schema" at line 4 (also at line 1) — missing "---" between documents? Two objects were read as one, which keeps only the last value of each key; put "---" on a line of its own before line 4, where the second object starts`}},
		{"second object starts with another key", "schema: olm.package\nname: foo\n\nname: stable\npackage: foo\nschema: olm.channel\nentries: []\n",
			[]string{`c.json:6:1: warning: duplicate key "schema" at line 6 (also at line 1) — missing "---" between documents? Two objects were read as one, which keeps only the last value of each key; put "---" on a line of its own before line 4, where the second object starts`}},
		{"three objects", "name: foo\nschema: olm.package\nname: s\nschema: olm.channel\npackage: foo\nname: b\nschema: olm.bundle\n",
			[]string{`c.json:4:1: warning: duplicate key "schema" at line 4 (also at line 2) — missing "---" between documents?`, `before line 3, where`,
				`c.json:7:1: warning: duplicate key "schema" at line 7 (also at line 4) — missing "---" between documents?`, `before line 6, where`}},
		{"yaml go-yaml reads (folded scalar)", "schema: olm.package\nname: foo\ndescription: >\n  folded\nschema: olm.channel\npackage: foo\nname: stable\nentries: []\n",
			[]string{`c.json:5:1: warning: duplicate key "schema" at line 5 (also at line 1) — missing "---" between documents?`, `before line 5, where`}},
		{"json", "{\"schema\": \"olm.package\", \"name\": \"foo\",\n \"schema\": \"olm.channel\", \"package\": \"foo\", \"name\": \"s\", \"entries\": []}\n",
			[]string{`c.json:2:12: warning: duplicate key "schema" at line 2 (also at line 1) — two objects run together? They were read as one, which keeps only the last value of each key; end the first object with "}" and start the second with "{" before line 2`}},
		{"another key", "schema: olm.package\nname: foo\nname: bar\n",
			[]string{`c.json:3:1: warning: duplicate key "name" (also at line 2): only the last value is kept; remove one of them`}},
		{"nested keys are not looked at", "schema: x.y\na:\n  b: 1\n  b: 2\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := warningLines(t, fstest.MapFS{"c.json": file(tt.data)})
			var want []string
			for _, w := range tt.want {
				if strings.HasPrefix(w, "c.json") {
					want = append(want, w)
				} else {
					want[len(want)-1] += "\x00" + w
				}
			}
			if len(got) != len(want) {
				t.Fatalf("warnings:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
			}
			for i := range got {
				for _, part := range strings.Split(want[i], "\x00") {
					if !strings.Contains(got[i], part) {
						t.Errorf("warning %d:\n%s\nwant it to contain\n%s", i, got[i], part)
					}
				}
			}
		})
	}
}
