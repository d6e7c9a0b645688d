package main

import (
	"embed"
	"strings"

	"github.com/spf13/cobra"
)

// The long help texts and examples of the commands are files of their
// own in help/, named by the command's path without "opm" and "alpha",
// its words joined by "-" (help/catalog-release.txt for opm alpha
// catalog release; help/root.txt for opm itself): NAME.txt is a
// command's long help, NAME.example.txt its examples as cobra prints
// them, NAME.alpha.txt what HELP_ALPHA=true adds to its long help.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText is the text of help/<name>.txt, without the file's last
// newline; a name with no file is "".
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(b), "\n")
}

// helpName is the name of a command's help files.
func helpName(cmd *cobra.Command) string {
	var words []string
	for c := cmd; c.HasParent(); c = c.Parent() {
		if c.Name() != "alpha" || c == cmd {
			words = append([]string{c.Name()}, words...)
		}
	}
	if len(words) == 0 {
		return "root"
	}
	return strings.Join(words, "-")
}

// applyHelp gives cmd and every command below it the long help and
// examples of their help files, where the command has none of its own.
func applyHelp(cmd *cobra.Command) {
	name := helpName(cmd)
	if cmd.Long == "" {
		cmd.Long = helpText(name)
		if helpAlpha() {
			cmd.Long += helpText(name + ".alpha")
		}
	}
	if cmd.Example == "" {
		cmd.Example = helpText(name + ".example")
	}
	for _, c := range cmd.Commands() {
		applyHelp(c)
	}
}
