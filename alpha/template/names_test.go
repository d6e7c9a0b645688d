package template

import (
	"slices"
	"testing"
)

func TestReadNames(t *testing.T) {
	basic := `---
schema: olm.template.basic
entries:
- schema: olm.package
  name: p
- schema: olm.channel
  name: stable
  entries:
  - name: p.v1
  - name: p.v2
    replaces: p.v1
- schema: olm.channel
  name: fast
  entries: []
- schema: olm.channel
- schema: olm.bundle
  image: quay.io/o/p:v1
- schema: olm.bundle
  image: quay.io/o/p:v2
`
	n, err := ReadNames(Basic, []byte(basic))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(n.Channels, []string{"stable", "fast"}) || !slices.Equal(n.Bundles, []string{"p.v1", "p.v2"}) || !slices.Equal(n.Images, []string{"quay.io/o/p:v1", "quay.io/o/p:v2"}) {
		t.Errorf("basic: %+v", n)
	}
	semver := "Schema: olm.semver\nstable:\n  bundles:\n  - image: quay.io/o/p:v2\nCandidate:\n  Bundles:\n  - Image: quay.io/o/p:v1\n  - Image: 7\nFast: {}\n"
	n, err = ReadNames(Semver, []byte(semver))
	if err != nil {
		t.Fatal(err)
	}
	if n.Channels != nil || n.Bundles != nil || !slices.Equal(n.Images, []string{"quay.io/o/p:v1", "quay.io/o/p:v2"}) {
		t.Errorf("semver (keys in any case): %+v", n)
	}
	for _, text := range []string{"schema: olm.template.basic\n", "entries: 3\n"} {
		if n, err := ReadNames(Basic, []byte(text)); err != nil || n.Channels != nil {
			t.Errorf("%q: %+v, %v", text, n, err)
		}
	}
	if _, err := ReadNames(Basic, []byte("entries: [\n")); err == nil {
		t.Error("a template that does not parse: no error")
	}
}
