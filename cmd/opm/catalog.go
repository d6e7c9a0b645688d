package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/internal/suggest"
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
		Long:  helpText("catalog"),
		Example: `  opm alpha catalog release operators/my-operator/1.2.0 --image quay.io/org/my-operator-bundle:1.2.0
  opm alpha catalog promote my-operator my-operator.v1.2.0 --to stable --dry-run
  opm alpha catalog render my-operator --check`,
		Args:        noArgs,
		Annotations: catalogAnnotations,
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
// template (release, promote, remove): its catalogs are what opm v1.71
// and later render, as the release pipeline writes them, unless a
// repository whose pipeline runs an older opm keeps that opm's style.
func (f *catalogFlags) addStyleFlag(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.keep, "keep-style", false, "Write semver catalogs committed in an older opm's style (each channel linked on its own, no package description) in that style, as opm releases before v1.71 did (default: as opm v1.71 and later, which the release pipeline runs)")
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
// document too: {"error": "...", "refused": bool}, and for a name the
// repository does not have, "didYouMean" (its near misses) or "names"
// (what there is).
func (f *catalogFlags) run(body func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		interruptionOf(cmd.Context(), cmd.ErrOrStderr()).set(planning)
		err := f.rootWords(body(cmd, args))
		if err != nil && f.output.value == "json" && !errors.Is(err, errReported) {
			doc := struct {
				Error      string   `json:"error"`
				Refused    bool     `json:"refused"`
				DidYouMean []string `json:"didYouMean,omitempty"`
				Names      []string `json:"names,omitempty"`
			}{Error: withFlagHint(err).Error(), Refused: refused(err)}
			var unknown *suggest.Unknown
			var cfg *repoconfig.Error
			switch {
			case errors.As(err, &unknown):
				doc.DidYouMean, doc.Names = unknown.Near, unknown.Known
			case errors.As(err, &cfg):
				doc.DidYouMean = cfg.Near // a release-config.yaml's first problem's
			}
			_ = jsonout.Write(cmd.OutOrStdout(), doc)
		}
		return err
	}
}

// rootWords says a root that is no catalog repository in the words of a
// command line that gave it with --root: "give --root" would be no help.
func (f *catalogFlags) rootWords(err error) error {
	if f.root == "" {
		return err
	}
	for _, ne := range needErrors(err, nil) {
		if ne.Need == author.NeedRoot {
			msg := strings.ReplaceAll(err.Error(), ne.Error(), ne.Problem+": --root must name the repository's root, the directory that holds operators/ and catalogs/")
			return &rephrased{msg: msg, err: err}
		}
	}
	return err
}

// options are the library's options for the flags.
func (f *catalogFlags) options(cmd *cobra.Command) (author.Options, error) {
	opts := author.Options{Force: f.force, KeepStyle: f.keep}
	if f.pull {
		if err := f.reg.check(); err != nil {
			return opts, err
		}
		opts.Pull = template.ImageBundles(render.Renderer{Images: f.reg.imageOptions(cmd, f.platform)})
	}
	return opts, nil
}

// catalogAnnotations makes failures exit 2 unless they are refusals.
var catalogAnnotations = map[string]string{failureExit2: "true"}

// finish writes a plan's result: applied, or as a diff with --dry-run.
func (f *catalogFlags) finish(cmd *cobra.Command, plan *author.Plan) error {
	if !f.dryRun {
		if err := f.write(cmd.Context(), plan, interruptionOf(cmd.Context(), cmd.ErrOrStderr())); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	if f.output.value == "json" {
		return writePlanJSON(out, plan, f.dryRun)
	}
	if f.dryRun {
		diff := func(w io.Writer) error { return plan.ReadableDiff(w, "--full-diff") }
		if f.fullDiff {
			diff = plan.Diff
		}
		if err := diff(out); err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "%s (dry run: nothing written)\n", plan.Summary)
	} else {
		for _, c := range plan.Changes {
			fmt.Fprintf(out, "%s %s\n", changeAction(c), c.Path)
		}
		fmt.Fprintln(out, plan.Summary)
	}
	for _, n := range planNotes(plan) {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
	}
	return nil
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

// planNotes are a plan's notes, and what it was made without, worded
// with the flag that would give it.
func planNotes(plan *author.Plan) []string {
	notes := slices.Clone(plan.Notes)
	for _, ne := range plan.Incomplete {
		notes = append(notes, ne.Problem+needWords(ne))
	}
	return notes
}

func changeAction(c author.FileChange) string {
	if c.Created {
		return "created"
	}
	return "updated"
}

// writePlanJSON writes a plan as {"dryRun", "summary", "changes": [{"path",
// "kind", "action"}], "notes"}.
func writePlanJSON(w io.Writer, plan *author.Plan, dryRun bool) error {
	type change struct {
		Path   string `json:"path"`
		Kind   string `json:"kind"`
		Action string `json:"action"`
	}
	doc := struct {
		DryRun  bool     `json:"dryRun"`
		Summary string   `json:"summary"`
		Changes []change `json:"changes"`
		Notes   []string `json:"notes"`
	}{DryRun: dryRun, Summary: plan.Summary, Changes: []change{}, Notes: planNotes(plan)}
	if doc.Notes == nil {
		doc.Notes = []string{}
	}
	for _, c := range plan.Changes {
		doc.Changes = append(doc.Changes, change{c.Path, c.Kind, changeAction(c)})
	}
	return jsonout.Write(w, doc)
}

func newCatalogRenderCmd(f *catalogFlags) *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:   "render [<pkg>...]",
		Short: "Render the file-based catalogs of operators from their templates again",
		Long:  helpText("catalog-render"),
		Example: `  opm alpha catalog render my-operator --check
  opm alpha catalog render --check              # every operator, in CI
  opm alpha catalog render my-operator --dry-run`,
		Annotations: catalogAnnotations,
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req := author.ExpandRequest{Packages: args, Check: check}
			if err := checkRequest(req, nil); err != nil {
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
			if check {
				return reportDrift(cmd, f, res)
			}
			if err := f.finish(cmd, res.Plan); err != nil {
				return err
			}
			for _, c := range res.Conflicts {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s: rendering offline keeps each catalog's copy: fix the wrong one by hand\n", c)
			}
			return nil
		}),
	}
	f.addEditFlags(cmd)
	cmd.Flags().BoolVar(&check, "check", false, "Write nothing; exit 1 naming each catalog that differs from its template")
	return cmd
}

// reportDrift prints the catalogs that differ from their templates, and
// the bundles whose copies in two catalogs differ, and fails when there
// is one.
func reportDrift(cmd *cobra.Command, f *catalogFlags, res *author.Expansion) error {
	out := cmd.OutOrStdout()
	plan, conflicts, failed := res.Plan, res.Conflicts, res.Drifted()
	where := map[string]author.Difference{}
	for _, d := range res.Differences {
		where[d.Path] = d
	}
	if f.output.value == "json" {
		type drift struct {
			Path string `json:"path"`
			Line int    `json:"line,omitempty"`
			What string `json:"what,omitempty"`
		}
		doc := struct {
			Passed    bool     `json:"passed"`
			Differ    []drift  `json:"differ"`
			Conflicts []string `json:"conflicts"`
		}{Passed: !failed, Differ: []drift{}, Conflicts: conflicts}
		if doc.Conflicts == nil {
			doc.Conflicts = []string{}
		}
		for _, c := range plan.Changes {
			d := where[c.Path]
			doc.Differ = append(doc.Differ, drift{c.Path, d.Line, d.What})
		}
		if err := jsonout.Write(out, doc); err != nil {
			return err
		}
	} else {
		for _, c := range plan.Changes {
			switch d, ok := where[c.Path]; {
			case c.Created:
				fmt.Fprintf(out, "%s: is missing: its template maps to it\n", c.Path)
			case ok:
				fmt.Fprintf(out, "%s:%d: differs from what its template renders: %s\n", c.Path, d.Line, d.What)
			default:
				fmt.Fprintf(out, "%s: differs from what its template renders\n", c.Path)
			}
		}
		for _, c := range conflicts {
			fmt.Fprintf(out, "%s (edited by hand?)\n", c)
		}
		fmt.Fprintln(cmd.ErrOrStderr(), plan.Summary)
		if len(plan.Changes) > 0 {
			fmt.Fprintln(cmd.ErrOrStderr(), "note: see the difference with opm alpha catalog render --dry-run, then fix the templates or render them")
		}
	}
	if failed {
		return errReported
	}
	return nil
}

// runVerb checks the request (flags names the flag or argument that
// gives each of its fields), opens an operator and makes its plan with
// verb, then finishes.
func (f *catalogFlags) runVerb(cmd *cobra.Command, pkg string, req request, flags map[string]string, verb func(*author.Package, author.Options) (*author.Plan, error)) error {
	if err := checkRequest(req, flags); err != nil {
		return err
	}
	opts, err := f.options(cmd)
	if err != nil {
		return err
	}
	p, err := f.repo().Open(cmd.Context(), pkg)
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
		Use:         "release operators/<pkg>/<version> --image PULLSPEC",
		Short:       "Release a bundle into its operator's templates and file-based catalogs",
		Long:        helpText("catalog-release"),
		Example:     helpText("catalog-release.example"),
		Args:        exactArgs(1),
		Annotations: catalogAnnotations,
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req := author.ReleaseRequest{BundleDir: args[0], Image: image, NewChannel: newChannel}
			if len(target.Channels) > 0 || target.TemplateFile != "" || target.Replaces != "" || len(target.Skips) > 0 || target.SkipRange != "" {
				req.Target = &target
			}
			flags := map[string]string{"BundleDir": "the bundle directory (operators/<pkg>/<version>)", "Image": "--image",
				"Target.Channels": "--channel", "Target.TemplateFile": "--template", "Target.Replaces": "--replaces", "Target.Skips": "--skips", "Target.SkipRange": "--skip-range"}
			if err := checkRequest(req, flags); err != nil {
				return err
			}
			opts, err := f.options(cmd)
			if err != nil {
				return err
			}
			p, err := f.repo().OpenBundleDir(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			plan, err := p.Release(cmd.Context(), req, opts)
			if err != nil {
				return err
			}
			return f.finish(cmd, plan)
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
		Long:  helpText("catalog-promote"),
		Example: `  opm alpha catalog promote my-operator my-operator.v1.2.0 --to stable
  opm alpha catalog promote my-operator my-operator.v1.2.0 --to stable --skips my-operator.v1.1.0 --dry-run
  opm alpha catalog promote konflux konflux-operator.v0.1.9 --to Stable   # a semver template's stream`,
		Args:        exactArgs(2),
		Annotations: catalogAnnotations,
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req.Bundle = args[1]
			if cmd.Flags().Changed("replaces") {
				req.Replaces = &replaces
			}
			flags := map[string]string{"Bundle": "the <bundle> argument", "Channel": "--to", "Replaces": "--replaces", "Skips": "--skips", "SkipRange": "--skip-range"}
			return f.runVerb(cmd, args[0], req, flags, func(p *author.Package, opts author.Options) (*author.Plan, error) {
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
		Long:  helpText("catalog-remove"),
		Example: `  opm alpha catalog remove my-operator my-operator.v1.1.1 --dry-run
  opm alpha catalog remove my-operator my-operator.v1.1.1`,
		Args:        exactArgs(2),
		Annotations: catalogAnnotations,
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req := author.RemoveRequest{Bundle: args[1]}
			return f.runVerb(cmd, args[0], req, map[string]string{"Bundle": "the <bundle> argument"}, func(p *author.Package, opts author.Options) (*author.Plan, error) {
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
		Long:  helpText("catalog-deprecate"),
		Example: `  opm alpha catalog deprecate my-operator --bundle my-operator.v1.0.0 --message "1.0 has a data-loss bug: upgrade to 1.1"
  opm alpha catalog deprecate my-operator --channel alpha --message "alpha is no longer updated: use stable"
  opm alpha catalog deprecate my-operator --package --message "replaced by other-operator"`,
		Args:        exactArgs(1),
		Annotations: catalogAnnotations,
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			flags := map[string]string{"Bundle": "--bundle", "Channel": "--channel", "Package": "--package"}
			return f.runVerb(cmd, args[0], req, flags, func(p *author.Package, opts author.Options) (*author.Plan, error) {
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
		Use:         "default-channel <pkg> <channel>",
		Short:       "Set the default channel of a package in every template",
		Long:        helpText("catalog-default-channel"),
		Example:     `  opm alpha catalog default-channel my-operator stable`,
		Args:        exactArgs(2),
		Annotations: catalogAnnotations,
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			req := author.DefaultChannelRequest{Channel: args[1]}
			return f.runVerb(cmd, args[0], req, map[string]string{"Channel": "the <channel> argument"}, func(p *author.Package, opts author.Options) (*author.Plan, error) {
				return p.SetDefaultChannel(cmd.Context(), req, opts)
			})
		}),
	}
	f.addEditFlags(cmd)
	return cmd
}
