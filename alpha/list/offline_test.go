package list

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNames: completion lists a catalog directory's packages, or a
// package's channels, and nothing for what is no catalog directory.
func TestNames(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "c.yaml"), []byte(`---
schema: olm.package
name: etcd
defaultChannel: stable
---
schema: olm.package
name: other
---
schema: olm.channel
package: etcd
name: stable
entries:
- name: etcd.v1
---
schema: olm.bundle
package: etcd
name: etcd.v1
image: quay.io/x/etcd:v1
properties:
- type: olm.package
  value: {packageName: etcd, version: 1.0.0}
`), 0o644)
	if got, ok := Names(context.Background(), dir, "", false); !ok || !slices.Equal(got, []string{"etcd", "other"}) {
		t.Errorf("packages: %v %v", got, ok)
	}
	if got, ok := Names(context.Background(), dir, "e", false); !ok || !slices.Equal(got, []string{"etcd"}) {
		t.Errorf("packages starting with e: %v %v", got, ok)
	}
	if got, ok := Names(context.Background(), dir, "etcd:", true); !ok || !slices.Equal(got, []string{"etcd:stable"}) {
		t.Errorf("channels: %v %v", got, ok)
	}
	if got, ok := Names(context.Background(), filepath.Join(dir, "c.yaml"), "", false); ok || got != nil {
		t.Errorf("a file: %v %v", got, ok)
	}
}
