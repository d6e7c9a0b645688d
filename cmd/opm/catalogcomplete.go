package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/author/complete"
)

// Completion of the catalog verbs: their arguments and flags complete
// from the repository they run in (--root or the one found from the
// working directory), through author/complete. Nothing is written and
// nothing fails aloud.

// lister lists names of the repository r for the operator op.
type lister func(r *author.Repo, op string) []string

// operatorsOnly lists the operators whatever op is.
func operatorsOnly(r *author.Repo, _ string) []string { return complete.Operators(r) }

// catalogArgs completes the positional arguments of a verb taking
// <pkg> first: the operators, then each later argument by its lister
// (nil: nothing more).
func (f *catalogFlags) catalogArgs(then ...lister) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
		listers := append([]lister{operatorsOnly}, then...)
		if len(args) >= len(listers) {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		op := ""
		if len(args) > 0 {
			op = args[0]
		}
		return matching(listers[len(args)](f.repo(), op), typed), cobra.ShellCompDirectiveNoFileComp
	}
}

// operatorArgs completes any number of operators, each once (render).
func (f *catalogFlags) operatorArgs(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
	names := slices.DeleteFunc(complete.Operators(f.repo()), func(n string) bool { return slices.Contains(args, n) })
	return matching(names, typed), cobra.ShellCompDirectiveNoFileComp
}

// bundleDirArg completes release's bundle directory: operators/<op>/,
// then its versions; a path that is not under operators/ as typed (from
// another working directory) completes as any directory.
func (f *catalogFlags) bundleDirArg(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	dirs := matching(complete.BundleDirs(f.repo(), typed), typed)
	if len(dirs) == 0 {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	if len(dirs) == 1 && strings.HasSuffix(dirs[0], "/") {
		return dirs, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	return dirs, cobra.ShellCompDirectiveNoFileComp
}

// catalogDirArg completes build's catalog directory: catalogs/<name>,
// or any directory outside a repository.
func (f *catalogFlags) catalogDirArg(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	if dirs := complete.Catalogs(f.repo()); len(dirs) > 0 {
		return matching(dirs, typed), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// flagOf completes flags from the operator that the verb's first
// argument names (of names: the operator itself, or the operator of a
// bundle directory); names ending in ":" take no space after them.
func (f *catalogFlags) flagOf(cmd *cobra.Command, of func(string) string, list lister, flags ...string) {
	fn := func(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names := matching(list(f.repo(), of(args[0])), typed)
		if slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(n, ":") }) {
			return names, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
	for _, flag := range flags {
		_ = cmd.RegisterFlagCompletionFunc(flag, fn)
	}
}

// operatorName is the operator an operator argument names: itself.
func operatorName(arg string) string { return arg }

// registerCatalogCompletion wires the completion of every catalog verb's
// arguments and flags.
func (f *catalogFlags) registerCatalogCompletion(catalog *cobra.Command) {
	_ = catalog.RegisterFlagCompletionFunc("root", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	})
	for _, cmd := range catalog.Commands() {
		switch cmd.Name() {
		case "render":
			cmd.ValidArgsFunction = f.operatorArgs
		case "release":
			cmd.ValidArgsFunction = f.bundleDirArg
			f.flagOf(cmd, complete.OperatorOf, complete.Channels, "channel")
			f.flagOf(cmd, complete.OperatorOf, complete.Templates, "template")
			f.flagOf(cmd, complete.OperatorOf, complete.Bundles, "replaces", "skips")
			f.flagOf(cmd, complete.OperatorOf, complete.ImageRepositories, "image")
		case "promote":
			cmd.ValidArgsFunction = f.catalogArgs(complete.Bundles)
			f.flagOf(cmd, operatorName, complete.Channels, "to")
			f.flagOf(cmd, operatorName, complete.Bundles, "replaces", "skips")
		case "remove":
			cmd.ValidArgsFunction = f.catalogArgs(complete.Bundles)
		case "deprecate":
			cmd.ValidArgsFunction = f.catalogArgs()
			f.flagOf(cmd, operatorName, complete.Bundles, "bundle")
			f.flagOf(cmd, operatorName, complete.Channels, "channel")
		case "default-channel":
			cmd.ValidArgsFunction = f.catalogArgs(complete.Channels)
		case "build":
			cmd.ValidArgsFunction = f.catalogDirArg
		}
		for _, flag := range []string{"message", "skip-range", "tag", "base-image", "label"} {
			if cmd.Flags().Lookup(flag) != nil {
				_ = cmd.RegisterFlagCompletionFunc(flag, cobra.NoFileCompletions)
			}
		}
	}
}
