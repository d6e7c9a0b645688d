package registries

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMatchPrefix(t *testing.T) {
	tests := []struct {
		ref, prefix string
		want        int
	}{
		{"quay.io/org/img", "quay.io", 7},
		{"quay.io/org/img", "quay.io/org", 11},
		{"quay.io/org/img", "quay.io/org/img", 15},
		{"quay.io/org/img:v1", "quay.io/org/img", 15},
		{"quay.io/org/img@sha256:abc", "quay.io/org/img", 15},
		{"quay.io/organization/img", "quay.io/org", -1}, // not at a boundary
		{"quay.io.evil/img", "quay.io", -1},
		{"quay.io", "quay.io/org", -1},
		{"a.example.com/x", "*.example.com", 13},
		{"b.a.example.com/x:1", "*.example.com", 15},
		{"a.example.com:5000/x", "*.example.com", 13},
		{"example.com/x", "*.example.com", -1}, // the host itself is not a subdomain
		{"a.example.com.evil/x", "*.example.com", -1},
		{"other.org/a.example.com/x", "*.example.com", -1}, // only the host is matched
	}
	for _, tt := range tests {
		if got := matchPrefix(tt.ref, tt.prefix); got != tt.want {
			t.Errorf("matchPrefix(%q, %q) = %d, want %d", tt.ref, tt.prefix, got, tt.want)
		}
	}
}

func TestFind(t *testing.T) {
	conf := &merged{entries: []Registry{
		{Prefix: "*.example.com"},
		{Prefix: "a.example.com"}, // as long as the wildcard: the first in prefix order wins
		{Prefix: "b.example.com/team"},
		{Prefix: "quay.io"},
		{Prefix: "quay.io/org"},
	}}
	tests := map[string]string{
		"quay.io/other/img":        "quay.io",
		"quay.io/org/img":          "quay.io/org",
		"quay.io/organization/img": "quay.io",
		"c.example.com/img":        "*.example.com",
		"b.example.com/team/img":   "b.example.com/team",
		"b.example.com/other/img":  "*.example.com",
		"a.example.com/img":        "*.example.com",
		"example.com/img":          "",
		"docker.io/library/img":    "",
	}
	for name, want := range tests {
		got := ""
		if e := conf.find(name); e != nil {
			got = e.Prefix
		}
		if got != want {
			t.Errorf("find(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestPathsFromEnv: CONTAINERS_REGISTRIES_CONF, then the user's
// file, then the system's; the user's file reads only the user's drop-ins.
func TestPathsFromEnv(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	userDir := filepath.Join(home, ".config", "containers")
	userFile := filepath.Join(userDir, "registries.conf")
	userDropIns := filepath.Join(userDir, "registries.conf.d")

	t.Setenv(ConfEnv, "")
	want := Paths{File: SystemConf, Dirs: []string{SystemConfDir, userDropIns}}
	if got := PathsFromEnv(); !reflect.DeepEqual(got, want) {
		t.Errorf("no user file: %+v, want %+v", got, want)
	}
	if err := os.MkdirAll(userDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(userFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	want = Paths{File: userFile, Dirs: []string{userDropIns}}
	if got := PathsFromEnv(); !reflect.DeepEqual(got, want) {
		t.Errorf("user file: %+v, want %+v", got, want)
	}
	t.Setenv(ConfEnv, "/some/where.conf")
	want = Paths{File: "/some/where.conf", Required: true, Dirs: []string{SystemConfDir, userDropIns}}
	if got := PathsFromEnv(); !reflect.DeepEqual(got, want) {
		t.Errorf("%s set: %+v, want %+v", ConfEnv, got, want)
	}
}

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDropIns: the system directory's files, then the user's, each in
// lexical order; a later table replaces the whole table of its prefix;
// other files and subdirectories are not read.
func TestDropIns(t *testing.T) {
	dir := t.TempDir()
	sys, user := filepath.Join(dir, "sys.d"), filepath.Join(dir, "user.d")
	main := writeFile(t, filepath.Join(dir, "registries.conf"), `
[[registry]]
prefix = "quay.io/a"
location = "main.example/a"
[[registry.mirror]]
location = "mirror.example/a"

[[registry]]
location = "quay.io/b"
insecure = true
`)
	writeFile(t, filepath.Join(sys, "20-b.conf"), "[[registry]]\nprefix = \"quay.io/a\"\nlocation = \"sys20.example/a\"\n")
	writeFile(t, filepath.Join(sys, "10-a.conf"), "[[registry]]\nprefix = \"quay.io/a\"\nlocation = \"sys10.example/a\"\n[[registry]]\nprefix = \"quay.io/c\"\nlocation = \"sys10.example/c\"\n")
	writeFile(t, filepath.Join(user, "00-user.conf"), "[[registry]]\nprefix = \"quay.io/c\"\nlocation = \"user.example/c\"\n")
	writeFile(t, filepath.Join(sys, "30-ignored.conf.bak"), "not toml [")
	writeFile(t, filepath.Join(sys, "sub", "40-nested.conf"), "not toml [")

	conf, err := loadFiles(Paths{File: main, Dirs: []string{sys, filepath.Join(dir, "missing.d"), user}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range conf.entries {
		got[e.Prefix] = e.location + " " + filepath.Base(e.File)
		if e.Prefix == "quay.io/a" && len(e.mirrors) != 0 {
			t.Errorf("quay.io/a kept the main file's mirrors %v: a drop-in replaces the whole table", e.mirrors)
		}
	}
	want := map[string]string{
		"quay.io/a": "sys20.example/a 20-b.conf",
		"quay.io/b": "quay.io/b registries.conf",
		"quay.io/c": "user.example/c 00-user.conf",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged entries %v, want %v", got, want)
	}
}

// TestV1Format: [registries.insecure] and [registries.block] lists.
func TestV1Format(t *testing.T) {
	file := writeFile(t, filepath.Join(t.TempDir(), "registries.conf"), `
[registries.search]
registries = ['docker.io']
[registries.insecure]
registries = ['local.test:5000', 'both.test']
[registries.block]
registries = ['bad.test', 'both.test/']
`)
	conf, err := loadFiles(Paths{File: file})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range conf.entries {
		got = append(got, e.Prefix+" "+e.location+" insecure="+bstr(e.Insecure)+" blocked="+bstr(e.Blocked))
	}
	want := []string{
		"bad.test bad.test insecure=false blocked=true",
		"both.test both.test insecure=true blocked=true",
		"local.test:5000 local.test:5000 insecure=true blocked=false",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func bstr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestRegistriesConfErrors: a broken file is an error that names it (with
// line and column for TOML syntax) and says what to fix.
func TestRegistriesConfErrors(t *testing.T) {
	tests := []struct {
		name, text string
		dropIn     bool
		want       string
	}{
		{"syntax", "[[registry]]\nlocation = \"a.test\"\ninsecure = tru\n", false, "registries.conf:3:12: invalid registries configuration"},
		{"type", "[[registry]]\nlocation = \"a.test\"\ninsecure = \"yes\"\n", false, "registries.conf:3:12: invalid registries configuration: insecure must be a boolean (true or false)"},
		{"scheme", "[[registry]]\nlocation = \"https://a.test\"\n", false, `[[registry]] #1: location "https://a.test": URI schemes are not supported`},
		{"no location", "[[registry]]\nprefix = \"a.test/x\"\n", false, `prefix "a.test/x" has no location`},
		{"nothing", "[[registry]]\ninsecure = true\n", false, "both location and prefix are unset"},
		{"wildcard path", "[[registry]]\nprefix = \"*.a.test/x\"\nlocation = \"b.test\"\n", false, "must be a host pattern like *.example.com"},
		{"mirror location", "[[registry]]\nlocation = \"a.test\"\n[[registry.mirror]]\ninsecure = true\n", false, "[[registry.mirror]] #1: location is unset"},
		{"pull-from-mirror value", "[[registry]]\nlocation = \"a.test\"\n[[registry.mirror]]\nlocation = \"m.test\"\npull-from-mirror = \"digest\"\n", false, `unsupported pull-from-mirror value "digest": use all, digest-only or tag-only`},
		{"both digest settings", "[[registry]]\nlocation = \"a.test\"\nmirror-by-digest-only = true\n[[registry.mirror]]\nlocation = \"m.test\"\npull-from-mirror = \"tag-only\"\n", false, "cannot be set when the registry sets mirror-by-digest-only"},
		{"pull-from-mirror on registry", "[[registry]]\nlocation = \"a.test\"\npull-from-mirror = \"all\"\n", false, "pull-from-mirror belongs in a [[registry.mirror]] table"},
		{"conflict", "[[registry]]\nprefix = \"x.test\"\nlocation = \"a.test\"\n[[registry]]\nprefix = \"y.test\"\nlocation = \"a.test\"\ninsecure = true\n", false, `registry "a.test" is defined more than once with different insecure settings`},
		{"mixed v1 v2", "unqualified-search-registries = [\"a.test\"]\n[registries.block]\nregistries = [\"b.test\"]\n", false, "mixes the version 1 format"},
		{"v1 drop-in", "[registries.insecure]\nregistries = [\"b.test\"]\n", true, "drop-in files must use the version 2 format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var p Paths
			if tt.dropIn {
				writeFile(t, filepath.Join(dir, "d", "registries.conf"), tt.text)
				p = Paths{File: filepath.Join(dir, "none.conf"), Dirs: []string{filepath.Join(dir, "d")}}
			} else {
				p = Paths{File: writeFile(t, filepath.Join(dir, "registries.conf"), tt.text)}
			}
			err := New(p).Load()
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), filepath.Join(dir)) {
				t.Errorf("error %v, want one naming the file and containing %q", err, tt.want)
			}
		})
	}
}

// TestRegistriesConfMissing: the default files may be missing; the file
// CONTAINERS_REGISTRIES_CONF names may not.
func TestRegistriesConfMissing(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "registries.conf")
	if err := New(Paths{File: missing, Dirs: []string{filepath.Join(dir, "d")}}).Load(); err != nil {
		t.Errorf("missing default files: %v", err)
	}
	err := New(Paths{File: missing, Required: true}).Load()
	if err == nil || !strings.Contains(err.Error(), missing+" (named by CONTAINERS_REGISTRIES_CONF) does not exist") {
		t.Errorf("missing named file: %v", err)
	}
	var nilConf *Config
	if err := nilConf.Load(); err != nil {
		t.Errorf("nil Config: %v", err)
	}
}
