package validate

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestValidateBytesMatchesValidate validates catalogs with ValidateBytes
// and, as the one file of a MapFS, with Validate, and wants the same
// results: problems (at the name given), warnings and counts.
func TestValidateBytesMatchesValidate(t *testing.T) {
	catalogs := map[string]string{
		"good":    goodPackage,
		"graph":   strings.Replace(goodPackage, `"replaces":"foo.v0.1.0",`, `"replaces":"foo.v0.0.9",`, 1),
		"objects": `{"schema":"olm.package","name":"Foo"}` + "\n" + `{"schema":"olm.package","name":5}` + "\n" + `{"schema":"olm.package","name":"x","y":1}`,
		"syntax":  goodPackage + `{"schema" "x"}`,
	}
	ctx := context.Background()
	for cname, data := range catalogs {
		for _, opts := range []Options{{}, {RootName: "repo/dir"}, {KeepBulk: true, KeepConfig: true, Concurrency: 1}} {
			t.Run(cname+"/"+opts.RootName, func(t *testing.T) {
				got, err := ValidateBytes(ctx, "ops/catalog.json", []byte(data), opts)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Validate(ctx, fstest.MapFS{"ops/catalog.json": {Data: []byte(data)}}, opts)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("results differ:\ngot  %+v\nwant %+v", got, want)
				}
				if cname != "good" && (len(got.Problems) == 0 || !strings.Contains(got.Problems[0].File, "ops/catalog.json")) {
					t.Errorf("problems %v, want them at ops/catalog.json", got.Problems)
				}
			})
		}
	}
	if _, err := ValidateBytes(ctx, "../catalog.json", []byte(goodPackage), Options{}); err == nil {
		t.Error("ValidateBytes took a name that is not a path in a file system")
	}
}
