package main

import (
	"context"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
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
		return matching(catalogPackages(cmd.Context(), args[0]), toComplete), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// completePackageFlag completes the packages of the first catalog
// directory among the arguments and, withChannels, "PACKAGE:CHANNEL" once a
// package and a colon are typed.
func completePackageFlag(withChannels bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		for _, dir := range args {
			c := loadForCompletion(cmd.Context(), dir)
			if c == nil {
				continue
			}
			if pkg, _, ok := strings.Cut(toComplete, ":"); ok && withChannels {
				var names []string
				if p := c.Packages[pkg]; p != nil {
					for ch := range p.Channels {
						names = append(names, pkg+":"+ch)
					}
				}
				slices.Sort(names)
				return matching(names, toComplete), cobra.ShellCompDirectiveNoFileComp
			}
			return matching(packageNames(c), toComplete), cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// catalogPackages lists the packages of the catalog directory dir, and
// nothing when dir is not one (an image, a bundle, a missing path) or
// cannot be read; a catalog with problems lists what could be indexed.
func catalogPackages(ctx context.Context, dir string) []string {
	c := loadForCompletion(ctx, dir)
	if c == nil {
		return nil
	}
	return packageNames(c)
}

// packageNames are the names of a catalog's packages, sorted.
func packageNames(c *model.Catalog) []string {
	names := make([]string, 0, len(c.Packages))
	for name := range c.Packages {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func loadForCompletion(ctx context.Context, dir string) *model.Catalog {
	if ctx == nil {
		ctx = context.Background()
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() || render.IsBundleDir(dir) {
		return nil
	}
	cfg, _ := declcfg.LoadFS(ctx, os.DirFS(dir), declcfg.WithoutBulkValues())
	if cfg == nil {
		return nil
	}
	c, _ := model.New(cfg, model.Options{})
	return c
}

// matching keeps the names that start with prefix.
func matching(names []string, prefix string) []string {
	return slices.DeleteFunc(names, func(n string) bool { return !strings.HasPrefix(n, prefix) })
}
