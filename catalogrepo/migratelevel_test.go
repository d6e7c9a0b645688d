package catalogrepo

import "testing"

// Catalogs of OpenShift 4.17 and later are rendered with
// bundle-object-to-csv-metadata; the name's v is optional and any later
// major version counts.
func TestMigrateLevel(t *testing.T) {
	for name, want := range map[string]string{
		"v4.17": "bundle-object-to-csv-metadata", "4.18": "bundle-object-to-csv-metadata", "v5.0": "bundle-object-to-csv-metadata",
		"v4.16": "", "4.9": "", "v3.11": "", "latest": "", "v4.17.1": "", "": "",
	} {
		if got := (&Catalog{Name: name}).MigrateLevel(); got != want {
			t.Errorf("%q: %q, want %q", name, got, want)
		}
	}
}
