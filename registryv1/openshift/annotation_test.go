package openshift

import (
	"strings"
	"testing"
)

func TestParseVersionsAnnotation(t *testing.T) {
	tests := []struct {
		in, want, note, err string
	}{
		{in: "v4.12", want: "4.12 and later"},
		{in: "=v4.12", want: "4.12"},
		{in: "v4.10-v4.12", want: "4.10-4.12"},
		{in: "v4.5,v4.6", want: "4.5 and later", note: "legacy"},
		{in: "v4.6,v4.5", want: "4.5 and later", note: "legacy"},
		{in: "4.12", want: "4.12 and later", note: "letter v"},
		{in: "=4.12", want: "4.12", note: "letter v"},
		{in: "v4.11-4.13", want: "4.11-4.13", note: "letter v"},
		{in: "", err: "empty"},
		{in: "v4.12,v4.13", err: "commas"},
		{in: "v4.12 - v4.14", err: "spaces"},
		{in: "v4.14-v4.12", err: "ends"},
		{in: "v3.11", err: "only OpenShift 4"},
		{in: "=v5.1", err: "only OpenShift 4"},
		{in: "=latest", err: "not an OpenShift version"},
		{in: "v4.x-v4.12", err: "not an OpenShift version"},
		{in: "v4.10-v4.y", err: "not an OpenShift version"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, note, err := ParseVersionsAnnotation(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.String() != tt.want {
				t.Errorf("range %s, want %s", r, tt.want)
			}
			if (tt.note == "") != (note == "") || !strings.Contains(note, tt.note) {
				t.Errorf("note %q, want one with %q", note, tt.note)
			}
		})
	}
}

func TestParseMaxVersion(t *testing.T) {
	tests := []struct {
		in      string
		want    string // the version, "" for none
		number  bool
		misread string
		err     string
	}{
		{in: "", want: ""},
		{in: `[{"type":"olm.package.required","value":{"packageName":"x","versionRange":">=1.0.0"}}]`, want: ""},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "4.8"}]`, want: "4.8"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "4.12.0"}]`, want: "4.12"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "v4.14"}]`, want: "4.14"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": 4.10}]`, want: "4.10", number: true, misread: "4.1"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": 4.12}]`, want: "4.12", number: true},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "4.8"},{"type": "olm.maxOpenShiftVersion", "value": "4.9"}]`, err: "twice"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "four"}]`, err: "not an OpenShift version"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "5.1"}]`, err: "not an OpenShift version"},
		{in: `{"type": "olm.maxOpenShiftVersion"}`, err: "not a JSON list"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := ParseMaxVersion(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.want == "" && m != nil:
				t.Fatalf("got %+v, want none", m)
			case tt.want == "":
			case m == nil:
				t.Fatalf("got none, want %s", tt.want)
			case m.Version.String() != tt.want || m.Number != tt.number:
				t.Fatalf("got %s (number %v), want %s (number %v)", m.Version, m.Number, tt.want, tt.number)
			}
			if m == nil {
				return
			}
			if read, ok := m.Misread(); ok != (tt.misread != "") || read != tt.misread && ok {
				t.Errorf("misread as %q %v, want %q", read, ok, tt.misread)
			}
		})
	}
}
