package lint

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
		{in: "v4.11-4.13", want: "4.11-4.13", note: "letter v"},
		{in: "", err: "empty"},
		{in: "v4.12,v4.13", err: "commas"},
		{in: "v4.12 - v4.14", err: "spaces"},
		{in: "v4.14-v4.12", err: "ends"},
		{in: "v3.11", err: "only OpenShift 4"},
		{in: "=latest", err: "not an OpenShift version"},
		{in: "v4.x-v4.12", err: "not an OpenShift version"},
		{in: "v4.10-v4.y", err: "not an OpenShift version"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, note, err := parseVersionsAnnotation(tt.in)
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

func TestParseMaxOpenShift(t *testing.T) {
	tests := []struct {
		in     string
		want   string // the version, "" for none
		number bool
		err    string
	}{
		{in: "", want: ""},
		{in: `[{"type":"olm.package.required","value":{"packageName":"x","versionRange":">=1.0.0"}}]`, want: ""},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "4.8"}]`, want: "4.8"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "4.12.0"}]`, want: "4.12"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "v4.14"}]`, want: "4.14"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": 4.10}]`, want: "4.10", number: true},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "4.8"},{"type": "olm.maxOpenShiftVersion", "value": "4.9"}]`, err: "twice"},
		{in: `[{"type": "olm.maxOpenShiftVersion", "value": "four"}]`, err: "not an OpenShift version"},
		{in: `{"type": "olm.maxOpenShiftVersion"}`, err: "not a JSON list"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := parseMaxOpenShift(tt.in)
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
			case m.v.String() != tt.want || m.number != tt.number:
				t.Fatalf("got %s (number %v), want %s (number %v)", m.v, m.number, tt.want, tt.number)
			}
		})
	}
}

func TestOCPRange(t *testing.T) {
	r := ocpRange{min: ocp{4, 11}, max: ocp{4, 13}}
	if !r.contains(ocp{4, 12}) || r.contains(ocp{4, 14}) || r.contains(ocp{4, 10}) {
		t.Error("contains")
	}
	if first, ok := r.from(ocpForKube(25)); !ok || first != (ocp{4, 12}) {
		t.Errorf("from(1.25) = %s %v, want 4.12", first, ok)
	}
	if _, ok := r.from(ocpForKube(27)); ok {
		t.Error("from(1.27) in 4.11-4.13")
	}
	if got := r.capAt(ocp{4, 10}); !got.empty() {
		t.Errorf("capped at 4.10: %s, want empty", got)
	}
	if got := allVersions.capAt(ocp{4, 12}); got.String() != "4.1-4.12" {
		t.Errorf("all capped at 4.12: %s", got)
	}
	if (ocp{4, 12}).kube() != 25 {
		t.Error("4.12 runs 1.25")
	}
	if rangeAnnotation(ocpRange{min: ocp{4, 12}, max: ocp{4, 12}}) != "=v4.12" || rangeAnnotation(r) != "v4.11-v4.13" {
		t.Error("rangeAnnotation")
	}
}
