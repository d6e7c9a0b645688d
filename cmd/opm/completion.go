package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/list"
	"github.com/fbcat/opm/render"
)

// Shell completion (opm completion SHELL): flag values and, for commands
// that take a catalog directory, the names in it. Completion never fails
// aloud: what cannot be read completes nothing.

// Platforms offered for --platform: the ones catalog and bundle images are
// published for.
var completionPlatforms = []string{"linux/amd64", "linux/arm64", "linux/ppc64le", "linux/s390x"}

// registerCompletion completes a flag with a fixed list of values.
func registerCompletion(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// registerFlagCompletions adds the completions of the flags commands
// share, wherever they are defined: --output (its formats, also where it
// is a persistent flag that subcommands inherit, as the catalog verbs'
// is), --platform and --migrate-level.
func registerFlagCompletions(cmd *cobra.Command) {
	f := cmd.Flags().Lookup("output")
	if f == nil {
		f = cmd.PersistentFlags().Lookup("output")
	}
	if f != nil {
		if o, ok := f.Value.(*outputFlag); ok {
			registerCompletion(cmd, "output", o.allowed...)
		}
	}
	if cmd.Flags().Lookup("platform") != nil {
		registerCompletion(cmd, "platform", completionPlatforms...)
	}
	if cmd.Flags().Lookup("migrate-level") != nil {
		registerCompletion(cmd, "migrate-level", render.MigrationLevels()...)
	}
	// Flags that name a package (render-graph --package-name) or a package
	// and maybe one of its channels (filter --package NAME[:CHANNEL]) of
	// the catalog directory given as an argument.
	if cmd.Flags().Lookup("package-name") != nil {
		_ = cmd.RegisterFlagCompletionFunc("package-name", completePackageFlag(false))
	}
	if cmd.Flags().Lookup("package") != nil {
		_ = cmd.RegisterFlagCompletionFunc("package", completePackageFlag(true))
	}
	for _, c := range cmd.Commands() {
		registerFlagCompletions(c)
	}
}

// completeDirs completes a directory argument.
func completeDirs(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// completeCatalogThenPackage completes a catalog directory, then the names
// of the packages in it.
func completeCatalogThenPackage(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	switch len(args) {
	case 0:
		return nil, cobra.ShellCompDirectiveFilterDirs
	case 1:
		names, _ := list.Names(cmd.Context(), args[0], toComplete, false)
		return names, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// completePackageFlag completes the packages of the first catalog
// directory among the arguments and, withChannels, "PACKAGE:CHANNEL" once a
// package and a colon are typed.
func completePackageFlag(withChannels bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		for _, dir := range args {
			if names, ok := list.Names(cmd.Context(), dir, toComplete, withChannels); ok {
				return names, cobra.ShellCompDirectiveNoFileComp
			}
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// matching keeps the names that start with prefix.
func matching(names []string, prefix string) []string {
	return slices.DeleteFunc(names, func(n string) bool { return !strings.HasPrefix(n, prefix) })
}
