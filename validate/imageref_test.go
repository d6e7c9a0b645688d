package validate

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/distribution/reference"
)

// Pieces of references near the edges of the grammar: domains, paths,
// and tags and digests.
var (
	refDomains = []string{"quay.io", "registry.redhat.io", "localhost", "localhost:5000", "host:5000", "a-b.c", "-a.io", "a-.io", "A.io", "1.2.3.4", "[::1]", "docker.io", "index.docker.io", "example.com:", "x", "a..b", ".a", "a:b"}
	refPaths   = []string{"/", "//", "ns", "name", "a", "0", "x.y", "x..y", "x_y", "x__y", "x___y", "x-y", "x--y", "x-", "_x", ".x", "X", "é", strings.Repeat("a", 64), strings.Repeat("p/", 60), strings.Repeat("long", 30)}
	refEnds    = []string{"", ":", ":v1.0", ":latest", ":-a", ":.a", ":_a", ":" + strings.Repeat("t", 128), ":" + strings.Repeat("t", 129),
		"@", "@sha256:", "@sha256:" + strings.Repeat("a", 64), "@sha256:" + strings.Repeat("A", 64), "@sha256:" + strings.Repeat("a", 63), "@sha512:" + strings.Repeat("a", 128), "@md5:" + strings.Repeat("a", 32)}
)

func pick(r *rand.Rand, pieces []string) string { return pieces[r.IntN(len(pieces))] }

// TestPlainImageRef holds the fast path to a subset of what
// ParseNormalizedNamed accepts, and checks that it recognises what
// catalogs hold.
func TestPlainImageRef(t *testing.T) {
	for _, s := range []string{
		"quay.io/ns/name:v1.2.3",
		"registry.redhat.io/openshift4/ose-kube-rbac-proxy@sha256:" + strings.Repeat("0123456789abcdef", 4),
		"quay.io/operator-framework/olm:v0.20.0@sha256:" + strings.Repeat("f", 64),
		"localhost:5000/a/b_c__d--e.f:Tag_1-2.3",
		"gcr.io/x",
	} {
		if !plainImageRef(s) {
			t.Errorf("%s: not recognised", s)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		b.WriteString(pick(r, refDomains))
		b.WriteString("/")
		for n := 1 + r.IntN(4); n > 0; n-- {
			b.WriteString(pick(r, refPaths))
		}
		for n := r.IntN(3); n > 0; n-- {
			b.WriteString(pick(r, refEnds))
		}
		s := b.String()
		if !plainImageRef(s) {
			continue
		}
		accepted++
		if _, err := reference.ParseNormalizedNamed(s); err != nil {
			t.Fatalf("%q: the fast path accepts it, the parser says %v", s, err)
		}
	}
	if accepted < 5000 {
		t.Errorf("only %d random references accepted; the test says little", accepted)
	}
}

func FuzzPlainImageRef(f *testing.F) {
	if testing.Short() {
		f.Skip("the seed corpus runs in make test-full")
	}
	for _, p := range refDomains {
		f.Add(p + "/x:y")
	}
	for _, p := range refPaths {
		f.Add("quay.io/" + p)
	}
	for _, p := range refEnds {
		f.Add("quay.io/x" + p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plainImageRef(s) {
			if _, err := reference.ParseNormalizedNamed(s); err != nil {
				t.Fatalf("%q: the fast path accepts it, the parser says %v", s, err)
			}
		}
	})
}
