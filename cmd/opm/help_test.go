package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestHelpSaysFileBasedCatalogs checks that the help of every command that
// works on catalogs says "file-based catalog", as upstream's does, rather
// than the older "declarative config index" alone. The bundle commands
// make bundles, not catalogs, and say so in their own words.
func TestHelpSaysFileBasedCatalogs(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		switch c.Name() {
		case "version", "completion", "help", "bash", "zsh", "fish", "powershell":
			return
		case "bundle":
			if c.Parent() != nil && c.Parent().Name() == "alpha" {
				return
			}
		}
		if help := c.Short + "\n" + c.Long; !strings.Contains(help, "file-based catalog") {
			t.Errorf("%s: help does not say \"file-based catalog\":\n%s", c.CommandPath(), help)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRootCmd()
	root.InitDefaultCompletionCmd()
	walk(root)
}
