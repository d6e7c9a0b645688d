package suggest

import "testing"

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
