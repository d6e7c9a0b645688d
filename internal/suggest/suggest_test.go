package suggest

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"olm.channell", "olm.channel", 1}, {"flaw", "lawn", 2}, {"stabel", "stable", 1}, {"preveiw", "preview", 1}, {"ab", "ba", 1}, {"abc", "ca", 3}} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	got := Closest("widget.v1.1.2", []string{"gadget.v1.1.2", "widget.v1.1.0", "widget.v1.1.1", "widget.v2.0.0", "other"}, 3, 2)
	if want := []string{"widget.v1.1.0", "widget.v1.1.1"}; !slices.Equal(got, want) {
		t.Errorf("Closest = %v, want %v", got, want)
	}
	if got := Closest("zzz", []string{"aaa"}, 1, 3); got != nil {
		t.Errorf("nothing is close, got %v", got)
	}
}
