package lint

import (
	"testing"

	"github.com/fbcat/opm/encoding/value"
)

func TestSkimObject(t *testing.T) {
	tests := []struct {
		in                     string
		apiVersion, kind, name string
		ok                     bool
	}{
		{in: `{"apiVersion":"v1","kind":"Service","metadata":{"labels":{"a":"b"},"name":"etcd"},"spec":{"ports":[{"port":2379}]}}`, apiVersion: "v1", kind: "Service", name: "etcd", ok: true},
		{in: " {\n \"spec\": {\"x\": [1, 2.5e3, true, null, \"s\\\"}\"]},\n \"kind\" : \"CronJob\", \"apiVersion\": \"batch/v1beta1\", \"metadata\": {\"name\": \"backup\"}\n}", apiVersion: "batch/v1beta1", kind: "CronJob", name: "backup", ok: true},
		{in: `{}`, ok: true},
		// Escapes are decoded, as in the tree.
		{in: `{"kind":"A\u0042","metadata":{"n\u0061me":"x\ty"}}`, kind: "AB", name: "x\ty", ok: true},
		// The last of a repeated key counts, whatever it holds.
		{in: `{"kind":"A","kind":1,"metadata":{"name":"a"},"metadata":[]}`, ok: true},
		{in: `{"metadata":{"name":1},"kind":"A"}`, kind: "A", ok: true},
		{in: `{"a":tru,"kind":"A"}`, kind: "A", ok: true},
		{in: `{"kind":"\x"}`},
		{in: `{"metadata":{"name":"\u12"}}`},
		{in: `{"metadata":{"name"}}`},
		{in: `[1]`},
		{in: `{"kind":"A"`},
		{in: `{"kind" "A"}`},
		{in: `{"spec":{"x":[}`},
		{in: `{"spec":"unterminated}`},
		{in: `{"a":,"kind":"A"}`},
	}
	for _, tt := range tests {
		a, k, n, ok := skimObject([]byte(tt.in))
		if ok != tt.ok || ok && (a != tt.apiVersion || k != tt.kind || n != tt.name) {
			t.Errorf("skimObject(%s) = %q %q %q %v, want %q %q %q %v", tt.in, a, k, n, ok, tt.apiVersion, tt.kind, tt.name, tt.ok)
		}
		// Where the object is valid JSON, skimming reads what its tree says.
		if v, err := value.ParseJSON([]byte(tt.in)); err == nil && v.Kind == value.Object {
			o := newObject(&v, "", 0)
			if !ok || a != o.apiVersion || k != o.kind || n != o.name {
				t.Errorf("skimObject(%s) = %q %q %q %v, the tree has %q %q %q", tt.in, a, k, n, ok, o.apiVersion, o.kind, o.name)
			}
		}
	}
}
