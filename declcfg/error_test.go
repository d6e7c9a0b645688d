package declcfg

import "testing"

// TestErrorQuotesFileNames checks that file names that could drive a
// terminal or split a "file:line: message" record are printed quoted, and
// that every other name is printed as it is.
func TestErrorQuotesFileNames(t *testing.T) {
	tests := []struct {
		file string
		want string
	}{
		{"cat/foo/index.yaml", `cat/foo/index.yaml:3: package "foo": bad`},
		{"cat/with space/ünïcödé €.json", `cat/with space/ünïcödé €.json:3: package "foo": bad`},
		{`cat/"quoted"\back.json`, `cat/"quoted"\back.json:3: package "foo": bad`},
		{"cat/\x1b[31mred.json", `"cat/\x1b[31mred.json":3: package "foo": bad`},
		{"cat/a\nb.json:1: fake", `"cat/a\nb.json:1: fake":3: package "foo": bad`},
		{"cat/tab\t.json", `"cat/tab\t.json":3: package "foo": bad`},
		{"cat/\u202eevil.json", `"cat/\u202eevil.json":3: package "foo": bad`},
		{"cat/latin1-\xe9.json", `"cat/latin1-\xe9.json":3: package "foo": bad`},
		{"cat/csi-\u009b.json", `"cat/csi-\u009b.json":3: package "foo": bad`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			e := &Error{File: tt.file, Line: 3, Package: "foo", Message: "bad"}
			if got := e.Error(); got != tt.want {
				t.Errorf("Error() = %s, want %s", got, tt.want)
			}
		})
	}
}
