package main

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

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

// upstreamPhrases are the words of upstream's help that are kept where
// scripts and users look for them, although they say "index".
var upstreamPhrases = []string{
	"CLI to interact with operator-registry and build indexes of operator content.", // opm --help, first line
	"Generate mermaid-formatted view of upgrade graphs of operators in an index",    // render-graph --help, first line
	"The index is a file-based catalog directory or a catalog image.",               // which explains it
	"sqlite-based index images",                       // what upstream called them
	"operators.operatorframework.io.index.configs.v1", // a label
	"fbc.catalog_mapping",                             // a key of the community repositories' ci.yaml
}

var offVocabulary = regexp.MustCompile(`(?i)\bindex(es)?\b|declarative config|\bFBC\b|\bDC\b`)

// TestHelpComplete walks every command, cobra's help and completion
// included: each has an example, a short description that starts with a
// capital letter, and help in one vocabulary ("catalog", "file-based
// catalog"; never "index" or "declarative config" but in upstream's
// phrases above).
func TestHelpComplete(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := c.CommandPath()
		if c.Example == "" {
			t.Errorf("%s: no Example", path)
		}
		if r, _ := utf8.DecodeRuneInString(c.Short); !unicode.IsUpper(r) {
			t.Errorf("%s: Short %q does not start with a capital letter", path, c.Short)
		}
		help := c.Short + "\n" + c.Long
		for _, p := range upstreamPhrases {
			help = strings.ReplaceAll(help, p, "")
		}
		if m := offVocabulary.FindString(help); m != "" {
			t.Errorf("%s: help says %q; say \"catalog\" or \"file-based catalog\":\n%s", path, m, help)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}
