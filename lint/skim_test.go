package lint

import "testing"

func TestSkimObject(t *testing.T) {
	tests := []struct {
		in                     string
		apiVersion, kind, name string
		ok                     bool
	}{
		{in: `{"apiVersion":"v1","kind":"Service","metadata":{"labels":{"a":"b"},"name":"etcd"},"spec":{"ports":[{"port":2379}]}}`, apiVersion: "v1", kind: "Service", name: "etcd", ok: true},
		{in: " {\n \"spec\": {\"x\": [1, 2.5e3, true, null, \"s\\\"}\"]},\n \"kind\" : \"CronJob\", \"apiVersion\": \"batch/v1beta1\", \"metadata\": {\"name\": \"backup\"}\n}", apiVersion: "batch/v1beta1", kind: "CronJob", name: "backup", ok: true},
		{in: `{}`, ok: true},
		{in: `{"kind":"A\u0042"}`},
		{in: `[1]`},
		{in: `{"kind":"A"`},
		{in: `{"kind" "A"}`},
		{in: `{"spec":{"x":[}`},
		{in: `{"spec":"unterminated}`},
		{in: `{"metadata":{"name":1},"kind":"A"}`, kind: "A", ok: true},
		{in: `{"a":tru,"kind":"A"}`, kind: "A", ok: true},
		{in: `{"a":,"kind":"A"}`},
	}
	for _, tt := range tests {
		a, k, n, ok := skimObject([]byte(tt.in))
		if ok != tt.ok || ok && (a != tt.apiVersion || k != tt.kind || n != tt.name) {
			t.Errorf("skimObject(%s) = %q %q %q %v, want %q %q %q %v", tt.in, a, k, n, ok, tt.apiVersion, tt.kind, tt.name, tt.ok)
		}
	}
}
