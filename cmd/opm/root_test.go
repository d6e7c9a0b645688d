package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestRootCmdFor checks that the tree made for a command's arguments is
// the root with that command alone, the same command as in the whole
// tree, and that anything else gets the whole tree.
func TestRootCmdFor(t *testing.T) {
	full := newRootCmd()
	for _, c := range topLevel {
		want, _, err := full.Find([]string{c.name})
		if err != nil || want.Name() != c.name {
			t.Fatalf("the whole tree has no command %q: %v", c.name, err)
		}
		root := newRootCmdFor([]string{c.name, "--help"})
		var names []string
		for _, sub := range root.Commands() {
			names = append(names, sub.Name())
		}
		// cobra's help and completion commands come with every root.
		if !slices.Contains(names, c.name) || len(names) > 3 {
			t.Errorf("the tree for %q holds %v", c.name, names)
		}
		got, _, _ := root.Find([]string{c.name})
		if g, w := describe(got), describe(want); g != w {
			t.Errorf("opm %s made alone differs from the whole tree's:\n%s\nwant\n%s", c.name, g, w)
		}
	}
	if len(full.Commands()) != len(topLevel)+2 {
		t.Errorf("the whole tree has %d commands below the root, topLevel %d (and help, completion)", len(full.Commands()), len(topLevel))
	}
	for _, args := range [][]string{nil, {"help", "render"}, {"--skip-tls-verify", "render"}, {"rendr"}, {"__complete", "re"}} {
		if got := len(newRootCmdFor(args).Commands()); got != len(full.Commands()) {
			t.Errorf("args %q: %d commands below the root, want all %d", args, got, len(full.Commands()))
		}
	}
}

// describe lists the command paths and flags of cmd's tree.
func describe(cmd *cobra.Command) string {
	var b strings.Builder
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		b.WriteString(c.CommandPath() + ":")
		c.Flags().VisitAll(func(f *pflag.Flag) { b.WriteString(" " + f.Name) })
		b.WriteString("\n")
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cmd)
	return b.String()
}
