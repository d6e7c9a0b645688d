package render

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

func TestMigrationHelp(t *testing.T) {
	want := "The migrator will run all migrations up to and including the selected level.\n" +
		"  - none                          : do nothing\n" +
		"  - bundle-object-to-csv-metadata : migrates bundles' \"olm.bundle.object\" to \"olm.csv.metadata\"\n"
	if got := MigrationHelp(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := MigrationsFor("bogus"); err == nil || err.Error() != `unknown migration level "bogus" (choose one of: none, bundle-object-to-csv-metadata)` {
		t.Errorf("unknown level: %v", err)
	}
}

func objectProperty(obj string) declcfg.Property {
	v, _ := json.Marshal(map[string]string{"data": base64.StdEncoding.EncodeToString([]byte(obj))})
	return declcfg.Property{Type: declcfg.PropertyBundleObject, Value: v}
}

func propertyTypes(b *declcfg.Bundle) string {
	var types []string
	for _, p := range b.Properties {
		types = append(types, p.Type)
	}
	return strings.Join(types, ",")
}

// TestCSVMetadataMigration: bundles with an image and a CSV object lose
// their objects for an olm.csv.metadata; the others are left as they are.
func TestCSVMetadataMigration(t *testing.T) {
	csv := objectProperty(`{"kind":"ClusterServiceVersion","metadata":{"name":"x"},"spec":{"displayName":"X"}}`)
	crd := objectProperty(`{"kind":"CustomResourceDefinition"}`)
	pkg := declcfg.Property{Type: declcfg.PropertyPackage, Value: json.RawMessage(`{"packageName":"x","version":"1.0.0"}`)}
	meta := declcfg.Property{Type: declcfg.PropertyCSVMetadata, Value: json.RawMessage(`{}`)}
	for _, tc := range []struct {
		name, image string
		props       []declcfg.Property
		want        string
	}{
		{"migrated", "example.com/x:1", []declcfg.Property{csv, pkg, crd}, "olm.package,olm.csv.metadata"},
		{"no image", "", []declcfg.Property{csv, pkg}, "olm.bundle.object,olm.package"},
		{"already has metadata", "example.com/x:1", []declcfg.Property{pkg, crd, meta}, "olm.package,olm.bundle.object,olm.csv.metadata"},
		{"no csv", "example.com/x:1", []declcfg.Property{pkg, crd}, "olm.package,olm.bundle.object"},
	} {
		b := &declcfg.Bundle{Name: "x.v1", Image: tc.image, Properties: tc.props}
		if err := Migrations(migrations).Run(b); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := propertyTypes(b); got != tc.want {
			t.Errorf("%s: properties %s, want %s", tc.name, got, tc.want)
		}
	}
	b := &declcfg.Bundle{Name: "x.v1", Image: "example.com/x:1", Properties: []declcfg.Property{csv}}
	if err := Migrations(migrations).Run(b); err != nil || !strings.Contains(string(b.Properties[0].Value), `"displayName":"X"`) {
		t.Errorf("csv metadata %s, %v", b.Properties[0].Value, err)
	}
	for name, p := range map[string]declcfg.Property{
		"undecodable object": {Type: declcfg.PropertyBundleObject, Value: json.RawMessage(`{"data":"%%%"}`)},
		"CSV of wrong shape": objectProperty(`{"kind":"ClusterServiceVersion","spec":{"displayName":5}}`),
	} {
		b := &declcfg.Bundle{Name: "x.v1", Image: "example.com/x:1", Properties: []declcfg.Property{p}}
		err := Migrations(migrations).Run(b)
		if err == nil || !strings.HasPrefix(err.Error(), `migration bundle-object-to-csv-metadata: bundle "x.v1": `) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRenderMigrationError: a migration that fails fails the render of
// its reference, streamed or not.
func TestRenderMigrationError(t *testing.T) {
	dir := t.TempDir()
	bad := objectProperty(`{"kind":"ClusterServiceVersion","spec":{"displayName":5}}`)
	bundle, _ := json.Marshal(declcfg.Bundle{Schema: "olm.bundle", Name: "x.v1", Package: "x", Image: "example.com/x:1", Properties: []declcfg.Property{bad}})
	if err := os.WriteFile(filepath.Join(dir, "catalog.json"), bundle, 0o644); err != nil {
		t.Fatal(err)
	}
	r := &Renderer{Migrations: migrations}
	_, runErr := r.Run(context.Background(), dir)
	_, streamErr := renderJSON(t, r, dir)
	for _, err := range []error{runErr, streamErr} {
		if err == nil || !strings.HasPrefix(err.Error(), `render reference "`+dir+`": migration bundle-object-to-csv-metadata: bundle "x.v1": reading ClusterServiceVersion`) {
			t.Errorf("error %v", err)
		}
	}
	if _, err := (&Renderer{}).Run(context.Background(), dir); err != nil {
		t.Errorf("without migrations: %v", err)
	}
}
