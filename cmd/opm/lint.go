package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/encoding/sarif"
	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/render"
)

// lintFlags are the flags of opm alpha lint.
type lintFlags struct {
	output     outputFlag
	rules      []string
	disable    []string
	previous   string
	baseline   string
	failOn     string
	noWebhooks bool
	platform   platformFlag
	summary    string
}

func newLintCmd(reg *registryFlags) *cobra.Command {
	f := &lintFlags{output: outputFlag{value: "text", allowed: []string{"text", "json", "sarif", "markdown"}}, failOn: string(lint.Error)}
	cmd := &cobra.Command{
		Use:   "lint PATH...",
		Short: "Check catalogs, bundles and operator directories for what breaks installs and upgrades",
		Long:  lintLong(),
		Example: `  opm alpha lint catalog/
  opm alpha lint operators/etcd/                       # its bundle directories and the catalogs its ci.yaml maps
  opm alpha lint bundle/ --previous old-bundle/        # CRD changes of one upgrade
  opm alpha lint catalogs/v4.18 --baseline origin/main # what a change strands
  opm alpha lint catalog/ --rule removed-api --fail-on warning
  opm alpha lint catalog/ -o sarif > lint.sarif        # for GitHub code scanning
  opm alpha lint operators/etcd --baseline origin/main -o sarif --summary "$GITHUB_STEP_SUMMARY"`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeDirs,
		Annotations:       map[string]string{failureExit2: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			err := runLint(cmd, args, f, reg)
			if err != nil && !errors.Is(err, errReported) {
				writeLintFailure(cmd, f, err)
			}
			return err
		},
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		writeLintFailure(c, f, err)
		return usageError{err}
	})
	fl := cmd.Flags()
	fl.VarP(&f.output, "output", "o", "Output format: one line per finding (text), a JSON document (json), a SARIF 2.1.0 log (sarif) or the pull-request summary (markdown)")
	fl.StringArrayVar(&f.rules, "rule", nil, "Run only this rule (repeatable; default: every rule)")
	fl.StringArrayVar(&f.disable, "disable", nil, "Do not run this rule (repeatable)")
	fl.StringVar(&f.previous, "previous", "", "Bundle directory the linted bundle directories upgrade from (crd-upgrade-unsafe compares their CRDs)")
	fl.StringVar(&f.baseline, "baseline", "", "The catalogs before the change, for stranded-upgrade: a directory, or a git ref of the repository the paths are in")
	fl.StringVar(&f.failOn, "fail-on", f.failOn, "Exit 1 when a finding is at least this severe (error|warning)")
	fl.BoolVar(&f.noWebhooks, "olmv1-no-webhooks", false, "olmv1-unsupported: the cluster's OLM v1 refuses bundles with webhooks (OpenShift 4.18)")
	fl.StringVar(&f.summary, "summary", "", "Also append the pull-request summary (as -o markdown writes it) to this file, e.g. $GITHUB_STEP_SUMMARY")
	addPlatformFlag(fl, &f.platform)
	return cmd
}

// lintLong is lint's Long help, with the rules from their table.
func lintLong() string {
	s := `Check file-based catalogs, registry+v1 bundle directories, operator
directories of a catalog repository (operators/<pkg>/: its bundle directories
and the catalogs its ci.yaml maps) and images for what opm validate does not:
APIs the target OpenShift versions no longer serve, bundles OLM v1 cannot
install, CRD changes that break stored objects, changes that strand installs,
and more.

Each finding is reported at the manifest, annotation or catalog line that
causes it, as "file:line: severity rule: subject: message", sorted, then a
summary. Only images are read from the network; a --baseline given as a git
ref is read with git.

Rules:
`
	for _, r := range lint.Rules() {
		s += fmt.Sprintf("  %-27s [%s] %s\n", r.ID, r.Severity, r.Description)
	}
	return s + `
Exit status: 0 when no finding is as severe as --fail-on (default error); 1
when one is; 2 when linting could not run (a path that cannot be read, a
catalog that does not load, an unknown rule, a usage mistake). With -o json
or sarif, stdout holds a document in every case.`
}

// runLint lints and writes the result; errReported means a finding
// reached --fail-on.
func runLint(cmd *cobra.Command, args []string, f *lintFlags, reg *registryFlags) error {
	if len(args) == 0 {
		return usageError{errors.New("give at least one PATH: a catalog, bundle or operator directory, or an image reference")}
	}
	failOn, err := lint.ParseSeverity(f.failOn)
	if err != nil {
		return usageError{fmt.Errorf("--fail-on: %w", err)}
	}
	if err := reg.check(); err != nil {
		return err
	}
	opts := lint.Options{
		Rules: f.rules, Disable: f.disable, Previous: f.previous, Baseline: f.baseline, NoWebhooks: f.noWebhooks,
		Images: &render.Renderer{Images: reg.imageOptions(cmd, f.platform)},
	}
	res, err := lint.Lint(cmd.Context(), args, opts)
	if err != nil {
		return err
	}
	passed := lint.Passed(res.Findings, failOn)
	for _, n := range res.Notes {
		fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
	}
	switch f.output.value {
	case "json":
		err = writeStructured(cmd.OutOrStdout(), "json", lintOutput{Passed: passed, Findings: nonNil(res.Findings)})
	case "sarif":
		err = sarif.Write(cmd.OutOrStdout(), lint.SARIF(res, sarifOptions()))
	case "markdown":
		err = lint.WriteMarkdown(cmd.OutOrStdout(), res, lint.MarkdownOptions{Passed: passed, Baseline: f.baseline})
	default:
		writeLintReport(cmd.OutOrStdout(), res)
	}
	if err == nil {
		err = appendLintSummary(f.summary, res, passed, f.baseline)
	}
	if err != nil {
		return err
	}
	if !passed {
		return errReported
	}
	return nil
}

// lintOutput is the -o json document.
type lintOutput struct {
	Passed   bool           `json:"passed"`
	Error    *validateError `json:"error,omitempty"`
	Findings []lint.Finding `json:"findings"`
}

func nonNil(fs []lint.Finding) []lint.Finding {
	if fs == nil {
		return []lint.Finding{}
	}
	return fs
}

// writeLintReport prints one line per finding and a summary.
func writeLintReport(w io.Writer, res *lint.Result) {
	for i := range res.Findings {
		fmt.Fprintln(w, res.Findings[i].String())
	}
	errs, warns := lint.Count(res.Findings)
	fmt.Fprintf(w, "%d %s, %d %s (%d %s run)\n", errs, plural(errs, "error", "errors"), warns, plural(warns, "warning", "warnings"), len(res.Rules), plural(len(res.Rules), "rule", "rules"))
}

// writeLintFailure writes, for -o json and sarif, the document saying that
// linting could not run and why.
func writeLintFailure(cmd *cobra.Command, f *lintFlags, err error) {
	writeLintSummaryFailure(cmd, f, err)
	switch f.output.value {
	case "json":
		_ = writeStructured(cmd.OutOrStdout(), "json", lintOutput{Error: &validateError{Message: err.Error()}, Findings: []lint.Finding{}})
	case "sarif":
		_ = sarif.Write(cmd.OutOrStdout(), lint.SARIFFailure(err.Error(), sarifOptions()))
	}
}

// sarifOptions names opm in a SARIF log, with paths relative to the
// working directory.
func sarifOptions() sarif.Options {
	wd, _ := os.Getwd()
	return sarif.Options{ToolName: "opm", ToolVersion: opmVersion(), BaseDir: wd}
}
