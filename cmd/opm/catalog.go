package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/author/report"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/option"
	"github.com/fbcat/opm/render"
)

// catalogFlags are the flags every `opm alpha catalog` verb takes.
type catalogFlags struct {
	root     string
	dryRun   bool
	fullDiff bool
	force    bool
	pull     bool
	keep     bool
	output   outputFlag
	platform platformFlag
	reg      *registryFlags
	// apply writes a plan ((*author.Plan).ApplyContext when nil): tests
	// stand in for a signal that comes while it runs.
	apply func(*author.Plan, context.Context) error
}

func newCatalogCmd(reg *registryFlags) *cobra.Command {
	f := &catalogFlags{reg: reg, output: outputFlag{value: "text", allowed: []string{"text", "json"}}}
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Author the file-based catalogs of an operator repository",
		Args:  noArgs,
		// failures exit 2 unless they are refusals (every verb's)
		Annotations: map[string]string{failureExit2: "true"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return f.recover(cmd)
		},
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&f.root, "root", "", "The repository root, which holds operators/ and catalogs/ (default: the working directory or the nearest one above it that has operators/)")
	pf.VarP(&f.output, "output", "o", "Output format (text|json)")
	cmd.AddCommand(newCatalogRenderCmd(f), newCatalogReleaseCmd(f), newCatalogPromoteCmd(f), newCatalogRemoveCmd(f),
		newCatalogDeprecateCmd(f), newCatalogDefaultChannelCmd(f), newCatalogBuildCmd(f))
	f.registerCatalogCompletion(cmd)
	return cmd
}

// addEditFlags defines the flags of the verbs that edit files.
func (f *catalogFlags) addEditFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.dryRun, "dry-run", false, "Print the unified diff of what would change and write nothing (bundle objects summarised, long lines cut)")
	fl.BoolVar(&f.fullDiff, "full-diff", false, "With --dry-run, print the diff in full: every bundle object's base64 and every long line as it is")
	fl.BoolVar(&f.force, "force", false, "Overwrite catalogs that differ from what their templates render")
	fl.BoolVar(&f.pull, "pull", false, "Render bundles that no committed catalog holds from their images")
	addPlatformFlag(fl, &f.platform)
}

// addStyleFlag defines --keep-style, on the verbs that can edit a semver
// template (release, promote, remove): its catalogs are what the release
// pipeline writes (author.StyleAuto), unless a repository whose pipeline
// runs an older opm keeps that opm's style (--keep-style) or today's
// style is wanted whatever the bundle's age (--keep-style=false).
func (f *catalogFlags) addStyleFlag(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.keep, "keep-style", false, "Write semver catalogs committed in an older opm's style (each channel linked on its own, no package description) in that style, as opm releases before v1.71 did; =false writes opm v1.71's style even for a bundle built before the release pipeline ran it (default: what the pipeline writes, opm v1.71's style, or the older one for a bundle whose CSV was created before 2026-07-21)")
}

// repo is the repository the flags name.
func (f *catalogFlags) repo() *author.Repo {
	if f.root == "" {
		return &author.Repo{Root: author.FindRoot(".")}
	}
	return &author.Repo{Root: f.root}
}

// recover finishes, undoes or discards what an earlier run killed while
// writing left (see author.Repo.Recover), and says which: the verbs'
// Repo.Open refuses a repository such a run left half-written.
func (f *catalogFlags) recover(cmd *cobra.Command) error {
	rec, err := f.repo().Recover()
	for _, n := range rec.Notes() {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
	}
	return err
}

// run runs a verb's body and, with -o json, reports a failure as a JSON
// document too (see report.WriteFailure).
func (f *catalogFlags) run(body func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		interruptionOf(cmd.Context(), cmd.ErrOrStderr()).set(planning)
		err := f.rootWords(body(cmd, args))
		if err != nil && !errors.Is(err, errReported) {
			_ = report.WriteFailure(cmd.OutOrStdout(), err, said(err), refused(err), f.report())
		}
		return err
	}
}

// report is how the verbs' results are written.
func (f *catalogFlags) report() report.Options {
	return report.Options{JSON: f.output.value == "json", DryRun: f.dryRun, FullDiff: f.fullDiff, Words: flagOf}
}

// rootWords says a root that is no catalog repository in the words of a
// command line that gave it with --root: "give --root" would be no help.
func (f *catalogFlags) rootWords(err error) error {
	if f.root == "" {
		return err
	}
	for _, oe := range option.All(err) {
		if oe.Problem != "" && slices.Contains(oe.Names(), "author.Repo.Root") {
			msg := strings.ReplaceAll(err.Error(), oe.Error(), oe.Problem+": --root must name the repository's root, the directory that holds operators/ and catalogs/")
			return &rephrased{msg: msg, err: err}
		}
	}
	return err
}

// options are the library's options for the flags.
func (f *catalogFlags) options(cmd *cobra.Command) (author.Options, error) {
	opts := author.Options{Force: f.force}
	if cmd.Flags().Changed("keep-style") {
		opts.Style = author.StyleToday
		if f.keep {
			opts.Style = author.StyleKept
		}
	}
	if f.pull {
		if err := f.reg.check(); err != nil {
			return opts, err
		}
		opts.Pull = template.ImageBundles(render.Renderer{Images: f.reg.imageOptions(cmd, f.platform)})
	}
	return opts, nil
}

// finish writes a plan's result: applied, or as a diff with --dry-run.
func (f *catalogFlags) finish(cmd *cobra.Command, plan *author.Plan) error {
	if !f.dryRun {
		if err := f.write(cmd.Context(), plan, interruptionOf(cmd.Context(), cmd.ErrOrStderr())); err != nil {
			return err
		}
	}
	return report.Write(cmd.OutOrStdout(), cmd.ErrOrStderr(), plan, f.report())
}

// write writes a plan's files, all or none, and records for an
// interruption how far it came: a signal that comes once the files are
// being moved into place lets the run finish, and says so.
func (f *catalogFlags) write(ctx context.Context, plan *author.Plan, said *interruption) error {
	said.set(writing)
	apply := f.apply
	if apply == nil {
		apply = (*author.Plan).ApplyContext
	}
	err := apply(plan, ctx)
	switch {
	case errors.Is(err, author.ErrNotWritten):
		said.set(planning)
	case err != nil:
		said.set(writeFailed)
	default:
		said.set(written)
		if sig := interruptedBy(ctx); sig != nil {
			said.say(sig, true, " while moving files into place, which finished: every change is written")
		}
	}
	return err
}

func newCatalogRenderCmd(f *catalogFlags) *cobra.Command {
	var checkOnly bool
	cmd := &cobra.Command{
		Use:   "render [<pkg>...]",
		Short: "Render the file-based catalogs of operators from their templates again",
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req := author.ExpandRequest{Packages: args, Check: checkOnly}
			if err := check(req); err != nil {
				return err
			}
			opts, err := f.options(cmd)
			if err != nil {
				return err
			}
			res, err := f.repo().Expand(cmd.Context(), req, opts)
			if err != nil {
				return err
			}
			if !checkOnly {
				err := f.finish(cmd, res.Plan)
				if err == nil {
					report.WriteConflicts(cmd.ErrOrStderr(), res)
				}
				return err
			}
			if err := report.WriteDrift(cmd.OutOrStdout(), cmd.ErrOrStderr(), res, f.report()); err != nil || !res.Drifted() {
				return err
			}
			return errReported
		}),
	}
	f.addEditFlags(cmd)
	cmd.Flags().BoolVar(&checkOnly, "check", false, "Write nothing; exit 1 naming each catalog that differs from its template")
	return cmd
}

// runVerb checks the request, opens an operator (by its name, pkg, or
// with open when it is nil) and makes its plan with verb, then finishes.
func (f *catalogFlags) runVerb(cmd *cobra.Command, pkg string, open func() (*author.Package, error), req interface{ Validate() error }, verb func(*author.Package, author.Options) (*author.Plan, error)) error {
	if err := check(req); err != nil {
		return err
	}
	opts, err := f.options(cmd)
	if err != nil {
		return err
	}
	if open == nil {
		open = func() (*author.Package, error) { return f.repo().Open(cmd.Context(), pkg) }
	}
	p, err := open()
	if err != nil {
		return err
	}
	plan, err := verb(p, opts)
	if err != nil {
		return err
	}
	return f.finish(cmd, plan)
}

func newCatalogReleaseCmd(f *catalogFlags) *cobra.Command {
	var image string
	var newChannel bool
	var target repoconfig.ReleaseTarget
	cmd := &cobra.Command{
		Use:   "release operators/<pkg>/<version> --image PULLSPEC",
		Short: "Release a bundle into its operator's templates and file-based catalogs",
		Args:  exactArgs(1),
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req := author.ReleaseRequest{BundleDir: args[0], Image: image, NewChannel: newChannel}
			if len(target.Channels) > 0 || target.TemplateFile != "" || target.Replaces != "" || len(target.Skips) > 0 || target.SkipRange != "" {
				req.Target = &target
			}
			open := func() (*author.Package, error) { return f.repo().OpenBundleDir(cmd.Context(), args[0]) }
			return f.runVerb(cmd, "", open, req, func(p *author.Package, opts author.Options) (*author.Plan, error) {
				return p.Release(cmd.Context(), req, opts)
			})
		}),
	}
	fl := cmd.Flags()
	fl.StringVar(&image, "image", "", "The bundle's image pull spec (required)")
	fl.StringSliceVar(&target.Channels, "channel", nil, "Without release-config.yaml: the channels (or semver streams) to release into")
	fl.StringVar(&target.TemplateFile, "template", "", "Without release-config.yaml: the one template to release into (default: every mapped template)")
	fl.StringVar(&target.Replaces, "replaces", "", "Without release-config.yaml: the bundle the new one replaces")
	fl.StringSliceVar(&target.Skips, "skips", nil, "Without release-config.yaml: the bundles the new one skips")
	fl.StringVar(&target.SkipRange, "skip-range", "", "Without release-config.yaml: the versions the new one skips (a semver range)")
	fl.BoolVar(&newChannel, "new-channel", false, "Make channels no template has even when a name is close to an existing channel's")
	f.addEditFlags(cmd)
	f.addStyleFlag(cmd)
	return cmd
}

func newCatalogPromoteCmd(f *catalogFlags) *cobra.Command {
	var req author.PromoteRequest
	var replaces string
	cmd := &cobra.Command{
		Use:   "promote <pkg> <bundle> --to <channel>",
		Short: "Make a bundle the head of a channel in every template that lists it",
		Args:  exactArgs(2),
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req.Bundle = args[1]
			if cmd.Flags().Changed("replaces") {
				req.Replaces = &replaces
			}
			return f.runVerb(cmd, args[0], nil, req, func(p *author.Package, opts author.Options) (*author.Plan, error) {
				return p.Promote(cmd.Context(), req, opts)
			})
		}),
	}
	fl := cmd.Flags()
	fl.StringVar(&req.Channel, "to", "", "The channel (or semver stream) the bundle is to head (required)")
	fl.StringVar(&replaces, "replaces", "", "The bundle the new entry replaces (default: the channel's head; \"\" for none)")
	fl.StringSliceVar(&req.Skips, "skips", nil, "The bundles the new entry skips")
	fl.StringVar(&req.SkipRange, "skip-range", "", "The versions the new entry skips (a semver range)")
	fl.BoolVar(&req.NewChannel, "new-channel", false, "Make the channel when no template has it even if its name is close to an existing channel's")
	f.addEditFlags(cmd)
	f.addStyleFlag(cmd)
	return cmd
}

func newCatalogRemoveCmd(f *catalogFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "remove <pkg> <bundle>",
		Short: "Remove a bundle from every template and catalog, keeping upgrade paths",
		Args:  exactArgs(2),
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req := author.RemoveRequest{Bundle: args[1]}
			return f.runVerb(cmd, args[0], nil, req, func(p *author.Package, opts author.Options) (*author.Plan, error) {
				return p.Remove(cmd.Context(), req, opts)
			})
		}),
	}
	f.addEditFlags(cmd)
	f.addStyleFlag(cmd)
	return cmd
}

func newCatalogDeprecateCmd(f *catalogFlags) *cobra.Command {
	var req author.DeprecateRequest
	cmd := &cobra.Command{
		Use:   "deprecate <pkg> (--bundle B | --channel C | --package) [--message M]",
		Short: "Deprecate a bundle, a channel or a package in the basic templates",
		Args:  exactArgs(1),
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			return f.runVerb(cmd, args[0], nil, req, func(p *author.Package, opts author.Options) (*author.Plan, error) {
				return p.Deprecate(cmd.Context(), req, opts)
			})
		}),
	}
	fl := cmd.Flags()
	fl.StringVar(&req.Bundle, "bundle", "", "The bundle to deprecate")
	fl.StringVar(&req.Channel, "channel", "", "The channel to deprecate")
	fl.BoolVar(&req.Package, "package", false, "Deprecate the whole package")
	fl.StringVar(&req.Message, "message", "", "What OLM tells users (default: \"<what> is deprecated.\")")
	f.addEditFlags(cmd)
	return cmd
}

func newCatalogDefaultChannelCmd(f *catalogFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "default-channel <pkg> <channel>",
		Short: "Set the default channel of a package in every template",
		Args:  exactArgs(2),
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req := author.DefaultChannelRequest{Channel: args[1]}
			return f.runVerb(cmd, args[0], nil, req, func(p *author.Package, opts author.Options) (*author.Plan, error) {
				return p.SetDefaultChannel(cmd.Context(), req, opts)
			})
		}),
	}
	f.addEditFlags(cmd)
	return cmd
}
