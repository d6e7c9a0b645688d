package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/cobra"
)

func TestCompletePackageFlag(t *testing.T) {
	dir := t.TempDir()
	catalog := `{"schema":"olm.package","name":"foo","defaultChannel":"stable"}
{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v1"}]}
{"schema":"olm.channel","package":"foo","name":"beta","entries":[{"name":"foo.v1"}]}
{"schema":"olm.package","name":"bar"}
`
	if err := os.WriteFile(filepath.Join(dir, "index.json"), []byte(catalog), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	tests := []struct {
		withChannels bool
		args         []string
		typed        string
		want         []string
	}{
		{false, []string{dir}, "", []string{"bar", "foo"}},
		{false, []string{dir}, "f", []string{"foo"}},
		{true, []string{dir}, "foo:", []string{"foo:beta", "foo:stable"}},
		{true, []string{dir}, "foo:s", []string{"foo:stable"}},
		{true, []string{dir}, "nope:", nil},
		{true, []string{"quay.io/x/y:v1", dir}, "b", []string{"bar"}}, // the first catalog directory
		{true, []string{filepath.Join(dir, "missing")}, "", nil},      // silent
		{true, nil, "", nil},
	}
	for _, tt := range tests {
		got, directive := completePackageFlag(tt.withChannels)(cmd, tt.args, tt.typed)
		if !slices.Equal(got, tt.want) || directive != cobra.ShellCompDirectiveNoFileComp {
			t.Errorf("%v %q: got %v (%v), want %v", tt.args, tt.typed, got, directive, tt.want)
		}
	}
}
