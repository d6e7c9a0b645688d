package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/internal/suggest"
	"github.com/spf13/cobra"
)

// Ways out of the commonest command-line mistakes: a mistyped command, and
// the commands old docs still show that upstream removed.

// removedCommand is a command upstream opm had and removed.
type removedCommand struct {
	path    string // words after "opm"
	instead string
}

// removedCommands are the ones the OpenShift and OLM docs of past releases
// still show. Subcommands come before their parents.
var removedCommands = []removedCommand{
	{"index add", "add the bundle to a file-based catalog: opm render BUNDLE_IMAGE writes its olm.bundle blob; add it to a channel's entries, then opm validate the catalog and build its image with opm generate dockerfile"},
	{"index export", "opm migrate INDEX_IMAGE DIR writes an index image's catalog as one directory per package (opm render INDEX_IMAGE as one stream)"},
	{"index", "sqlite-based index images gave way to file-based catalogs: opm migrate INDEX_IMAGE DIR converts an index image, then edit the catalog directory, opm validate it and build its image with opm generate dockerfile"},
	{"registry serve", "opm serve DIR serves a file-based catalog directory"},
	{"registry", "sqlite database files gave way to file-based catalogs: opm migrate converts a catalog image, opm validate checks a catalog directory and opm serve serves it"},
	{"alpha generate dockerfile", "opm generate dockerfile DIR"},
	{"alpha generate", "opm generate dockerfile DIR"},
	{"alpha validate", "opm validate DIR"},
	{"alpha serve", "opm serve DIR"},
	{"alpha render", "opm render"},
	{"alpha init", "opm init"},
	{"alpha veneer", "opm alpha render-template (templates were called veneers)"},
	{"alpha render-veneer", "opm alpha render-template (templates were called veneers)"},
}

// removedHint answers a command line that runs a removed command with
// what to use instead, or returns nil. A command of that name that exists
// (one added since) always wins.
func removedHint(root *cobra.Command, args []string) error {
	words := leadingWords(args)
	for _, rc := range removedCommands {
		path := strings.Fields(rc.path)
		if len(words) < len(path) || !slices.Equal(words[:len(path)], path) {
			continue
		}
		if c, rest, err := root.Find(path); err == nil && len(rest) == 0 && c.Name() == path[len(path)-1] {
			return nil
		}
		return fmt.Errorf("opm %s was removed upstream; instead: %s", rc.path, rc.instead)
	}
	return nil
}

// leadingWords are the command path as typed: the words up to the first
// flag that follows one (the global flags may come first).
func leadingWords(args []string) []string {
	var words []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			if len(words) > 0 {
				break
			}
			continue
		}
		words = append(words, a)
	}
	return words
}

// unknownCommand is the error for a word that names no subcommand of cmd,
// with the commands it may have meant.
func unknownCommand(cmd *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q for %q", word, cmd.CommandPath())
	if s := suggestions(cmd, word); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", quoteOr(s))
	}
	return fmt.Errorf("%s (see '%s --help')", msg, cmd.CommandPath())
}

// suggestions are the subcommands of cmd, hidden ones (alpha) included,
// whose names are close to word or start with it; for the root, the
// subcommands of alpha too ("opm list" means "opm alpha list").
func suggestions(cmd *cobra.Command, word string) []string {
	var out []string
	for _, name := range closeNames(cmd, word) {
		out = append(out, cmd.CommandPath()+" "+name)
	}
	if !cmd.HasParent() {
		for _, c := range cmd.Commands() {
			if c.Hidden && c.HasSubCommands() {
				for _, name := range closeNames(c, word) {
					out = append(out, c.CommandPath()+" "+name)
				}
			}
		}
	}
	return out
}

// closeNames are the subcommands of cmd, hidden or not, that word may
// have meant (suggest.Meant, the rule of every "did you mean"), and those
// that name word among their SuggestFor; a subcommand named word is the
// only one meant.
func closeNames(cmd *cobra.Command, word string) []string {
	var names, suggested []string
	for _, c := range cmd.Commands() {
		if c.Name() == "help" || c.Deprecated != "" {
			continue
		}
		if c.Name() == word {
			return []string{word}
		}
		names = append(names, c.Name())
		if slices.Contains(c.SuggestFor, word) {
			suggested = append(suggested, c.Name())
		}
	}
	meant := suggest.Meant(word, names)
	for _, s := range suggested {
		if !slices.Contains(meant, s) {
			meant = append(meant, s)
		}
	}
	return meant
}

func quoteOr(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
