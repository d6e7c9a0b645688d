package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/linttest"
	"github.com/fbcat/opm/position"
)

func TestParseProfile(t *testing.T) {
	for s, want := range map[string]Profile{"community": ProfileCommunity, "certified": ProfileCertified, "none": ProfileNone, "auto": ProfileAuto} {
		if p, err := ParseProfile(s); err != nil || p != want {
			t.Errorf("%s: %q %v", s, p, err)
		}
	}
	if _, err := ParseProfile("comunity"); err == nil || !strings.Contains(err.Error(), "use community, certified, none or auto") {
		t.Fatalf("a misspelt profile: %v", err)
	}
}

// A configuration's profile is read at its line; a bad one names it.
func TestConfigProfile(t *testing.T) {
	c, err := Parse("cfg.yaml", []byte("target: olmv0\nprofile: certified\n"), rules)
	if err != nil || c.ProfileOf() != ProfileCertified {
		t.Fatalf("profile: %+v %v", c, err)
	}
	var none *Config
	if none.ProfileOf() != ProfileAuto {
		t.Fatal("no configuration: not auto")
	}
	for data, want := range map[string]string{
		"profile: isv\n":       `cfg.yaml:1: profile: unknown profile "isv"`,
		"profile: [a, b]\n":    `cfg.yaml:1: profile must be a single value`,
		"target: {a: b}\n":     `cfg.yaml:1: target must be a single value`,
		"profile: community\n": "",
	} {
		_, err := Parse("cfg.yaml", []byte(data), rules)
		if (want == "") != (err == nil) || err != nil && !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: want %q, got %v", data, want, err)
		}
	}
}

// auto is community on an operator directory or the operators/ directory
// above it, none elsewhere; a profile given stays.
func TestProfileResolve(t *testing.T) {
	repo := t.TempDir()
	pkg := filepath.Join(repo, "operators", "etcd")
	linttest.WriteFiles(t, pkg, map[string]string{"ci.yaml": "fbc:\n  enabled: true\n", "0.9.4/manifests/x.yaml": "kind: X\n"})
	linttest.WriteFiles(t, repo, map[string]string{"catalog/etcd.yaml": "schema: olm.package\n"})
	for _, tt := range []struct {
		p     Profile
		paths []string
		want  Profile
	}{
		{ProfileAuto, []string{pkg}, ProfileCommunity},
		{ProfileAuto, []string{filepath.Join(repo, "operators")}, ProfileCommunity},
		{ProfileAuto, []string{filepath.Join(repo, "catalog")}, ProfileNone},
		{ProfileCertified, []string{filepath.Join(repo, "catalog")}, ProfileCertified},
	} {
		if got := tt.p.Resolve(tt.paths); got != tt.want {
			t.Errorf("%q on %v: %q, want %q", tt.p, tt.paths, got, tt.want)
		}
	}
}

func TestErrorWithoutLine(t *testing.T) {
	if got := (&position.Error{File: "cfg.yaml", Message: "cannot read"}).Error(); got != "cfg.yaml: cannot read" {
		t.Fatal(got)
	}
}
