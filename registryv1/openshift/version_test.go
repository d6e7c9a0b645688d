package openshift

import "testing"

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in    string
		want  Version
		withV bool
		err   bool
	}{
		{in: "v4.17", want: Version{4, 17}, withV: true},
		{in: "4.17", want: Version{4, 17}},
		{in: "v5.0", want: Version{5, 0}, withV: true},
		{in: "3.11", want: Version{3, 11}},
		{in: "v4", err: true},
		{in: "v4.17.1", err: true},
		{in: "V4.17", err: true},
		{in: "vv4.17", err: true},
		{in: " v4.17", err: true},
		{in: "v4.x", err: true},
		{in: "", err: true},
	}
	for _, tt := range tests {
		v, withV, err := ParseVersion(tt.in)
		switch {
		case tt.err && err == nil:
			t.Errorf("%q: got %v, want an error", tt.in, v)
		case !tt.err && (err != nil || v != tt.want || withV != tt.withV):
			t.Errorf("%q: got %v (v %v) %v, want %v (v %v)", tt.in, v, withV, err, tt.want, tt.withV)
		}
	}
}

func TestVersionOrderAndKubernetes(t *testing.T) {
	if !(Version{4, 9}).Less(Version{4, 10}) || (Version{5, 0}).Less(Version{4, 18}) || (Version{4, 12}).Compare(Version{4, 12}) != 0 {
		t.Error("order")
	}
	// OpenShift 4.12 runs Kubernetes 1.25, 4.18 runs 1.31; 4.1 ran 1.13,
	// 4.2 1.14 and 4.3 1.16 (as Red Hat's table and the pipeline's have it).
	for ocp, kube := range map[Version]int{{4, 12}: 25, {4, 18}: 31, {4, 1}: 13, {4, 2}: 14, {4, 3}: 16, {4, 17}: 30} {
		if got := ocp.KubernetesMinor(); got != kube {
			t.Errorf("%s runs 1.%d, want 1.%d", ocp, got, kube)
		}
		if got := ForKubernetesMinor(kube); got != ocp {
			t.Errorf("1.%d is run by %s, want %s", kube, got, ocp)
		}
	}
	if got := ForKubernetesMinor(15); got != (Version{4, 3}) {
		t.Errorf("the first release to run 1.15 or later is %s, want 4.3", got)
	}
}

func TestRange(t *testing.T) {
	r := Range{Min: Version{4, 11}, Max: Version{4, 13}}
	if !r.Contains(Version{4, 12}) || r.Contains(Version{4, 14}) || r.Contains(Version{4, 10}) {
		t.Error("Contains")
	}
	if first, ok := r.FirstFrom(ForKubernetesMinor(25)); !ok || first != (Version{4, 12}) {
		t.Errorf("FirstFrom(1.25) = %s %v, want 4.12", first, ok)
	}
	if first, ok := r.FirstFrom(Version{4, 2}); !ok || first != r.Min {
		t.Errorf("FirstFrom(4.2) = %s %v, want 4.11", first, ok)
	}
	if _, ok := r.FirstFrom(ForKubernetesMinor(27)); ok {
		t.Error("FirstFrom(1.27) in 4.11-4.13")
	}
	if got := r.CapAt(Version{4, 10}); !got.Empty() {
		t.Errorf("capped at 4.10: %s, want empty", got)
	}
	if got := AllVersions().CapAt(Version{4, 12}); got.String() != "4.1-4.12" {
		t.Errorf("all capped at 4.12: %s", got)
	}
	if got := r.CapAt(Version{4, 15}); got != r {
		t.Errorf("capped past its end: %s", got)
	}
	for want, r := range map[string]Range{"=v4.12": Only(Version{4, 12}), "v4.11-v4.13": r, "v4.12": {Min: Version{4, 12}, Open: true}} {
		if got := r.Annotation(); got != want {
			t.Errorf("Annotation() = %q, want %q", got, want)
		}
		if back, note, err := ParseVersionsAnnotation(r.Annotation()); err != nil || note != "" || back != r {
			t.Errorf("%q reads back as %v %q %v", want, back, note, err)
		}
	}
}
