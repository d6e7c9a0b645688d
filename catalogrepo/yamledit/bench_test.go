package yamledit

import (
	"fmt"
	"strings"
	"testing"
)

// bigTemplate is a basic template with n channel entries and n bundles.
func bigTemplate(n int) []byte {
	var b strings.Builder
	b.WriteString("---\nschema: olm.template.basic\nentries:\n- schema: olm.package\n  name: p\n- schema: olm.channel\n  name: s\n  package: p\n  entries:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - name: p.v%d\n    replaces: p.v%d\n", i+1, i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "- schema: olm.bundle\n  image: quay.io/x/p:%d # built %d\n", i, i)
	}
	return []byte(b.String())
}

// BenchmarkRelease parses a template of 2000 bundles, makes a release's
// two appends and produces the verified text.
func BenchmarkRelease(b *testing.B) {
	src := bigTemplate(2000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		f, err := Parse("big.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		_, ch := Lookup(f.Root().Content[3].Content[1], "entries")
		if err := f.Append(ch, chEntry("p.v2001", "p.v2000")); err != nil {
			b.Fatal(err)
		}
		if err := f.Append(f.Root().Content[3], bundle("quay.io/x/p:2001")); err != nil {
			b.Fatal(err)
		}
		if _, err := f.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
}
