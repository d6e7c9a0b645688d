package declcfg

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// transientCatalog is a YAML catalog of n bundles, each with property
// values of its own (collections, which come compacted) of every size.
func transientCatalog(n int) []byte {
	var b strings.Builder
	b.WriteString("schema: olm.package\nname: p\n")
	for i := range n {
		fmt.Fprintf(&b, `---
schema: olm.bundle
package: p
name: p.v%[1]d
image: quay.io/p:%[1]d
properties:
- type: olm.package
  value:
    packageName: p
    version: %[1]d.0.0
- type: olm.gvk
  value:
    group: g%[1]d.example.com
    kind: K%[1]d
    version: v1
- type: olm.csv.metadata
  value:
    description: |
      %[2]s
    displayName: P %[1]d
`, i, strings.Repeat(fmt.Sprintf("line %d ", i), 1+i*40))
	}
	return []byte(b.String())
}

// TestTransientItems checks that a walk whose visitor encodes each item
// at once (WithTransientItems: property values reuse one document's
// memory for the next) sees what LoadFS, which keeps every item, loads,
// and that LoadFS keeps its items whole with the option too.
func TestTransientItems(t *testing.T) {
	fsys, err := NewMemFS(map[string][]byte{"a.yaml": transientCatalog(60), "b.yaml": transientCatalog(7)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	kept, err := LoadFS(ctx, fsys, WithTransientItems())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	streamed := map[string]string{}
	_, err = WalkFS(ctx, fsys, func(it Item) error {
		if it.Bundle != nil {
			mu.Lock()
			streamed[it.Bundle.Name+" "+it.Bundle.Pos.File] = string(it.Bundle.AppendJSON(nil))
			mu.Unlock()
		}
		return nil
	}, WithTransientItems())
	if err != nil {
		t.Fatal(err)
	}
	if len(kept.Bundles) != 67 || len(streamed) != 67 {
		t.Fatalf("%d bundles kept, %d streamed, want 67", len(kept.Bundles), len(streamed))
	}
	for i := range kept.Bundles {
		b := &kept.Bundles[i]
		want := string(b.AppendJSON(nil))
		if got := streamed[b.Name+" "+b.Pos.File]; got != want {
			t.Fatalf("%s streamed:\n%s\nkept:\n%s", b.Name, got, want)
		}
		var n int
		if _, err := fmt.Sscanf(b.Name, "p.v%d", &n); err != nil || !strings.Contains(want, fmt.Sprintf(`"g%d.example.com"`, n)) || !strings.Contains(want, fmt.Sprintf("line %d ", n)) {
			t.Fatalf("%s holds another bundle's values:\n%s", b.Name, want)
		}
	}
}
