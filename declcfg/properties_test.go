package declcfg

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// The direct decoding of {"data":"BASE64"} agrees with encoding/json's.
func TestBundleObjectData(t *testing.T) {
	obj := `{"apiVersion":"v1","kind":"Service","metadata":{"name":"etcd"}}`
	b64 := base64.StdEncoding.EncodeToString([]byte(obj))
	yamlB64 := base64.StdEncoding.EncodeToString([]byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: etcd\n"))
	tests := []struct {
		raw, want, err string
	}{
		{raw: `{"data":"` + b64 + `"}`, want: obj},
		{raw: `{ "data": "` + b64 + `" }`, want: obj},
		{raw: `{"data":"` + b64[:20] + `\n` + b64[20:] + `"}`, want: obj},
		{raw: `{"data":"` + yamlB64 + `"}`, want: obj},
		{raw: `{"data":"not base64!"}`, err: "illegal base64 data"},
		{raw: `{"data":"` + b64[:len(b64)-1] + `"}`, err: "illegal base64 data"},
	}
	for _, tt := range tests {
		got, err := BundleObjectData([]byte(tt.raw))
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.raw, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.raw, err)
		case string(got) != tt.want:
			t.Errorf("%s: got %s, want %s", tt.raw, got, tt.want)
		}
	}
}

// propertyValueSamples are values of olm.gvk, olm.package and
// olm.package.required properties, read quickly or not.
var propertyValueSamples = []string{
	`{"group":"x.io","kind":"X","version":"v1"}`, `{"kind":"X","version":"v1","group":"x.io"}`, `{}`,
	`{"packageName":"p","version":"1.0.0"}`, `{"packageName":"p","version":"1.0.0","release":"2"}`,
	`{"packageName":"p","versionRange":">=1.0.0 <2"}`, `{"group":"é.io","kind":"日本","version":"v1"}`,
	`{"Group":"x.io"}`, `{"group":"x.io","group":"y.io"}`, `{"group":"x\u002eio"}`, `{"group":"x\"io"}`,
	`{"group": "x.io"}`, `{"group":"x.io",}`, `{"group":1}`, `{"group":null}`, `{"group":"a","extra":{"b":[1]}}`,
	`null`, `[]`, `"x"`, `{"group":"x.io"`, `{"group":"` + "\xff" + `"}`, `{"group":"a` + "\t" + `b"}`, `{,}`, `{"":"x"}`,
}

// TestParsePropertyValueAsJSON checks that the values read without
// reflection read as encoding/json reads them, errors included.
func TestParsePropertyValueAsJSON(t *testing.T) {
	for _, s := range propertyValueSamples {
		checkPropertyValueAsJSON(t, []byte(s))
	}
}

func FuzzParsePropertyValue(f *testing.F) {
	for _, s := range propertyValueSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 0 {
			checkPropertyValueAsJSON(t, raw)
		}
	})
}

func checkPropertyValueAsJSON(t *testing.T, raw []byte) {
	t.Helper()
	sameAsJSON[GVKProperty](t, raw)
	sameAsJSON[PackageProperty](t, raw)
	sameAsJSON[PackageRequiredProperty](t, raw)
}

func sameAsJSON[T comparable](t *testing.T, raw []byte) {
	t.Helper()
	got, err := ParsePropertyValue[T](raw)
	var want T
	werr := json.Unmarshal(raw, &want)
	if (err == nil) != (werr == nil) || err == nil && got != want {
		t.Errorf("ParsePropertyValue[%T](%q) = %+v, %v; encoding/json: %+v, %v", want, raw, got, err, want, werr)
	}
}
