package declcfg

import (
	"encoding/base64"
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
