package olmv1

import (
	"strings"
	"testing"
)

// TestOptionsValidate: the names an install takes are checked before
// any bundle is read, each error naming its option.
func TestOptionsValidate(t *testing.T) {
	for _, tt := range []struct {
		opts interface{ Validate() error }
		want string
	}{
		{RBACOptions{}, "RBACOptions.ExtensionName is required"},
		{RBACOptions{ExtensionName: "Bad_Name"}, `RBACOptions.ExtensionName "Bad_Name": a lowercase RFC 1123 subdomain`},
		{RBACOptions{ExtensionName: "ok", ServiceAccount: "x y"}, `RBACOptions.ServiceAccount "x y"`},
		{RBACOptions{ExtensionName: "ok"}, ""},
		{InstallOptions{Namespace: "ops"}, ""},
		{InstallOptions{Namespace: "ops", Selection: Selection{Package: "Bad_Pkg"}}, `RBACOptions.ExtensionName "Bad_Pkg"`},
		{InstallOptions{Selection: Selection{Package: "p"}}, "ManifestOptions.InstallNamespace is required"},
	} {
		err := tt.opts.Validate()
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.opts, err, tt.want)
		}
	}
}
