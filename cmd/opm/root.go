package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fbcat/opm/image"
)

// helpAlpha reports whether alpha commands and flags are shown in help.
func helpAlpha() bool { return os.Getenv("HELP_ALPHA") == "true" }

// alphaFlagPrefix starts the usage of every alpha-* flag, as upstream's does.
const alphaFlagPrefix = "(ALPHA: This flag will be removed or renamed in a future release, potentially without notice) "

// registryFlags are the global flags for image registry access.
type registryFlags struct {
	skipTLSVerify bool
	useHTTP       bool
	skipTLS       bool
}

// topLevelCmd makes one of opm's commands below the root, by name.
type topLevelCmd struct {
	name string
	make func(*registryFlags) *cobra.Command
}

// topLevel are opm's commands below the root.
var topLevel = []topLevelCmd{
	{"render", newRenderCmd},
	{"alpha", newAlphaCmd},
	{"validate", func(*registryFlags) *cobra.Command { return newValidateCmd() }},
	{"init", func(*registryFlags) *cobra.Command { return newInitCmd() }},
	{"generate", func(*registryFlags) *cobra.Command { return newGenerateCmd() }},
	{"migrate", newMigrateCmd},
	{"serve", newServeCmd},
	{"version", func(*registryFlags) *cobra.Command { return newVersionCmd() }},
}

// newRootCmd makes the whole command tree.
func newRootCmd() *cobra.Command { return newRootCmdFor(nil) }

// newRootCmdFor makes the command tree that args need: where they start
// with the name of one of opm's commands, the root and that command alone
// (making every command, and faulting in the code that does, took 3 ms of
// every run); otherwise (help, completion, flags first, a mistyped
// command, which gets suggestions) all of it.
func newRootCmdFor(args []string) *cobra.Command {
	var reg registryFlags
	root := &cobra.Command{
		Use:               "opm",
		Short:             "Operator package manager",
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{},
		Args:              noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return nil
		},
	}
	root.SetFlagErrorFunc(flagError)
	pf := root.PersistentFlags()
	pf.BoolVar(&reg.skipTLSVerify, "skip-tls-verify", false, "skip TLS certificate verification for container image registries while pulling bundles")
	pf.BoolVar(&reg.useHTTP, "use-http", false, "use plain HTTP for container image registries while pulling bundles")
	pf.BoolVar(&reg.skipTLS, "skip-tls", false, "skip TLS certificate verification for container image registries while pulling bundles or catalogs")
	_ = pf.MarkDeprecated("skip-tls", "use --use-http and --skip-tls-verify instead")
	root.Flags().Bool("debug", false, "enable debug logging")
	_ = root.Flags().MarkHidden("debug")

	for _, c := range topLevel {
		if len(args) == 0 || !isTopLevel(args[0]) || args[0] == c.name {
			root.AddCommand(c.make(&reg))
		}
	}
	// cobra's help and completion commands, made now rather than when the
	// root runs, so that they get examples as every command does (see
	// applyHelp).
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	applyHelp(root)
	if !helpAlpha() {
		hideAlphaFlags(root)
	}
	registerFlagCompletions(root)
	return root
}

// isTopLevel reports whether name is that of one of opm's commands below
// the root.
func isTopLevel(name string) bool {
	return slices.ContainsFunc(topLevel, func(c topLevelCmd) bool { return c.name == name })
}

// hideAlphaFlags hides every flag whose name starts with "alpha-" unless
// HELP_ALPHA=true, as upstream does.
func hideAlphaFlags(cmd *cobra.Command) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if strings.HasPrefix(f.Name, "alpha-") {
			f.Hidden = true
		}
	})
	for _, c := range cmd.Commands() {
		hideAlphaFlags(c)
	}
}

// check validates the combination of the registry flags, with upstream's
// messages.
func (r *registryFlags) check() error {
	switch {
	case r.skipTLS && r.useHTTP:
		return errors.New("invalid flag combination: cannot use --use-http with --skip-tls")
	case r.skipTLS && r.skipTLSVerify:
		return errors.New("invalid flag combination: cannot use --skip-tls-verify with --skip-tls")
	case r.skipTLSVerify && r.useHTTP:
		return errors.New("invalid flag combination: --use-http and --skip-tls-verify cannot both be true")
	}
	return nil
}

// platformFlag is the --platform flag of the commands that pull images:
// its value is parsed when flags are, so a bad one is a usage error.
type platformFlag struct {
	value    string
	platform *v1.Platform // nil until set: image.Options' default, linux/amd64
}

const defaultPlatform = "linux/amd64"

func (p *platformFlag) String() string {
	if p.value == "" {
		return defaultPlatform
	}
	return p.value
}
func (p *platformFlag) Type() string { return "string" }
func (p *platformFlag) Set(s string) error {
	parsed, err := image.ParsePlatform(s)
	if err != nil {
		return err
	}
	p.value, p.platform = s, parsed
	return nil
}

// addPlatformFlag defines --platform on a command's flags.
func addPlatformFlag(f *pflag.FlagSet, p *platformFlag) {
	f.Var(p, "platform", "Platform (os/arch[/variant]) to pick from multi-platform images")
}

// imageOptions turns the registry flags and a command's --platform into
// the image package's options (see image.FromEnv).
func (r *registryFlags) imageOptions(cmd *cobra.Command, platform platformFlag) image.Options {
	return image.FromEnv(r.skipTLSVerify || r.useHTTP || r.skipTLS, platform.platform, cmd.ErrOrStderr())
}

// Argument validators that report usage mistakes.

// noArgs is the validator of commands that take no arguments, most of
// which group subcommands: an argument is a command it does not have.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return unknownCommand(cmd, args[0])
	}
	return nil
}

func exactArgs(n int) cobra.PositionalArgs { return usageArgs(cobra.ExactArgs(n)) }

func minArgs(n int) cobra.PositionalArgs { return usageArgs(cobra.MinimumNArgs(n)) }

func rangeArgs(lo, hi int) cobra.PositionalArgs { return usageArgs(cobra.RangeArgs(lo, hi)) }

// usageArgs makes a validator's complaints usage errors.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}

// outputFlag is an --output value limited to a set of formats; a bad value
// is a usage error reported when flags are parsed.
type outputFlag struct {
	value   string
	allowed []string
}

func (o *outputFlag) String() string { return o.value }
func (o *outputFlag) Type() string   { return "string" }
func (o *outputFlag) Set(s string) error {
	for _, a := range o.allowed {
		if s == a {
			o.value = s
			return nil
		}
	}
	return fmt.Errorf("invalid --output value %q, expected (%s)", s, strings.Join(o.allowed, "|"))
}
