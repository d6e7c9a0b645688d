package image

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
)

func TestAuthKeys(t *testing.T) {
	tests := []struct{ ref, want string }{
		{"quay.io/org/team/repo:1", "quay.io/org/team/repo quay.io/org/team quay.io/org quay.io"},
		{"docker.io/library/busybox:1", "docker.io/library/busybox docker.io/library docker.io index.docker.io https://index.docker.io/v1/"},
		{"127.0.0.1:5000/x:1", "127.0.0.1:5000/x 127.0.0.1:5000"},
	}
	for _, tt := range tests {
		r, err := name.ParseReference(tt.ref)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(authKeys(r.Context()), " "); got != tt.want {
			t.Errorf("%s: keys %s, want %s", tt.ref, got, tt.want)
		}
	}
	if got := strings.Join(authKeys(name.MustParseReference("quay.io/x:1").Context().Registry), " "); got != "quay.io" {
		t.Errorf("registry resource: %s", got)
	}
}

func TestSecureTransport(t *testing.T) {
	var got []string
	record := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		got = append(got, req.URL.String())
		return nil, errors.New("stop")
	})
	for _, insecure := range []bool{false, true} {
		tr := secureTransport(record, insecure)
		for _, u := range []string{"http://10.1.2.3:5000/v2/", "http://127.0.0.1:5000/v2/", "http://localhost:5000/v2/", "http://[::1]:5000/v2/", "https://quay.io/v2/"} {
			req, _ := http.NewRequest(http.MethodGet, u, nil)
			tr.RoundTrip(req) //nolint:errcheck // only the URL matters
		}
	}
	want := "https://10.1.2.3:5000/v2/ http://127.0.0.1:5000/v2/ http://localhost:5000/v2/ http://[::1]:5000/v2/ https://quay.io/v2/ " +
		"http://10.1.2.3:5000/v2/ http://127.0.0.1:5000/v2/ http://localhost:5000/v2/ http://[::1]:5000/v2/ https://quay.io/v2/"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("requests went to\n%s\nwant\n%s", g, want)
	}
}
