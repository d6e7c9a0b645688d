package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestMisspeltFlagEveryCommand runs every command with a misspelt
// --help: each says in one line of stderr which flag it does not know,
// that --help was meant and where to see the flags, with no page of
// usage and nothing on stdout, and exits as any usage mistake does.
func TestMisspeltFlagEveryCommand(t *testing.T) {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Name() == "help" || c.Name() == cobra.ShellCompRequestCmd || c.Name() == cobra.ShellCompNoDescRequestCmd {
			return
		}
		args := append(strings.Fields(c.CommandPath())[1:], "--hepl")
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		want := "Error: unknown flag: --hepl; did you mean --help? (see '" + c.CommandPath() + " --help')\n"
		if stderr.String() != want || stdout.Len() > 0 {
			t.Errorf("%s: stdout %q, stderr %q, want stderr %q", c.CommandPath(), stdout.String(), stderr.String(), want)
		}
		if wantCode := exitCode(c, errTest); code != wantCode {
			t.Errorf("%s: exit %d, want %d", c.CommandPath(), code, wantCode)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}

func TestFlagsMeant(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("image", "", "")
	fs.String("template", "", "")
	fs.Bool("dry-run", false, "")
	fs.Bool("full-diff", false, "")
	fs.StringP("output", "o", "", "")
	fs.String("root", "", "")
	fs.String("secret", "", "")
	_ = fs.MarkHidden("secret")
	fs.Bool("old", false, "")
	_ = fs.MarkDeprecated("old", "gone")
	for _, tt := range []struct {
		name, shorthands string
		want             []string
	}{
		{"imag", "", []string{"--image"}},
		{"iamge", "", []string{"--image"}}, // a swap of neighbours is one edit
		{"mage=x", "", []string{"--image"}},
		{"tempalte", "", []string{"--template"}},
		{"dry", "", []string{"--dry-run"}}, // a prefix
		{"rot", "", []string{"--root"}},
		{"secert", "", nil}, // hidden
		{"od", "", nil},     // deprecated
		{"zzzzzz", "", nil},
		{"i", "image", []string{"--image"}}, // -image
		{"O", "O", []string{"-o"}},
		{"Z", "Z", nil},
	} {
		if got := flagsMeant(fs, tt.name, tt.shorthands); !slices.Equal(got, tt.want) {
			t.Errorf("flagsMeant(%q, %q) = %q, want %q", tt.name, tt.shorthands, got, tt.want)
		}
	}
}
