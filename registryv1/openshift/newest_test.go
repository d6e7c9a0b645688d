package openshift

import "testing"

func TestRangeLatest(t *testing.T) {
	tests := []struct {
		in   string
		want Version
	}{
		{"=v4.12", Version{4, 12}},
		{"v4.10-v4.14", Version{4, 14}},
		{"v4.12", Newest()},
		{"v4.5,v4.6", Newest()},
		{"v4.99", Version{4, 99}},
	}
	for _, tt := range tests {
		r, _, err := ParseVersionsAnnotation(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Latest(); got != tt.want {
			t.Errorf("%s: latest %s, want %s", tt.in, got, tt.want)
		}
	}
}
