package bundle

import (
	"bytes"
	"strings"
	"testing"
)

// TestBuildValidate: a build needs a tag and a builder opm knows, and its
// errors name the option.
func TestBuildValidate(t *testing.T) {
	for _, tt := range []struct {
		b    Build
		want string
	}{
		{Build{Builder: Docker}, "Build.Tag is required"},
		{Build{Tag: "x", Builder: "kaniko"}, `Build.Builder: "kaniko" is not a supported image builder`},
		{Build{Tag: "x", Builder: None}, ""},
	} {
		err := tt.b.Validate()
		if (tt.want == "") != (err == nil) || err != nil && !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.b, err, tt.want)
		}
	}
	if err := (Options{}).Validate(); err == nil || !strings.HasPrefix(err.Error(), "Options.Directory is required") {
		t.Errorf("no directory: %v", err)
	}
	if err := (Build{Tag: "x", Builder: None}).Run(t.TempDir(), nil, nil); err == nil {
		t.Error("none runs a command")
	}
	if err := (Build{Tag: "x", Builder: "false-builder-that-is-not-there"}).Run(t.TempDir(), nil, nil); err == nil {
		t.Error("an unknown builder ran")
	}
}

// TestReport: what Generate did, a line each.
func TestReport(t *testing.T) {
	var b bytes.Buffer
	(&Result{Inferred: true, Package: "p", Channels: "a,b", DefaultChannel: "a", Annotations: "/elsewhere/annotations.yaml", AnnotationsWritten: true, Dockerfile: "/elsewhere/bundle.Dockerfile"}).Report(&b)
	want := "inferred from the package directory: package p, channels a,b, default channel \"a\"\nwrote /elsewhere/annotations.yaml\nkept existing /elsewhere/bundle.Dockerfile\n"
	if b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}
