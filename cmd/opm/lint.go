package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/encoding/sarif"
	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/osdk/suites"
	"github.com/fbcat/opm/lint/report"
	"github.com/fbcat/opm/render"
)

// lintFlags are the flags of opm alpha lint: lint's options, how the
// result is written, and what the command resolves itself.
type lintFlags struct {
	opts     lint.Options
	report   report.Options
	output   outputFlag
	platform platformFlag
	target   string
	config   string
	printCfg bool
}

func newLintCmd(reg *registryFlags) *cobra.Command {
	f := &lintFlags{output: outputFlag{value: "text", allowed: report.Formats}}
	cmd := &cobra.Command{
		Use:               "lint PATH...",
		Short:             "Check catalogs, bundles and operator directories for what breaks installs and upgrades",
		Long:              lintLong(),
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeDirs,
		Annotations:       map[string]string{failureExit2: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			err := runLint(cmd, args, f, reg)
			if err != nil && !errors.Is(err, errReported) {
				_ = report.Write(cmd.OutOrStdout(), f.output.value, nil, f.writeOptions(said(err)))
			}
			return err
		},
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		_ = report.Write(c.OutOrStdout(), f.output.value, nil, f.writeOptions(err.Error()))
		return flagError(c, err)
	})
	fl := cmd.Flags()
	fl.VarP(&f.output, "output", "o", "Output format: one line per finding (text), a JSON document (json), a SARIF 2.1.0 log (sarif) or the pull-request summary (markdown)")
	fl.StringArrayVar(&f.opts.Rules, "rule", nil, "Run only this rule (repeatable; default: every rule)")
	fl.StringArrayVar(&f.opts.Disable, "disable", nil, "Do not run this rule (repeatable)")
	fl.StringVar(&f.opts.Previous, "previous", "", "Bundle directory the linted bundle directories upgrade from (crd-upgrade-unsafe compares their CRDs)")
	fl.StringVar(&f.opts.Baseline, "baseline", "", "The paths before the change (a directory, or a git ref of the repository the paths are in): findings it has too are existing and do not fail the run; stranded-upgrade compares with it")
	fl.StringVar(&f.report.FailOn, "fail-on", string(finding.Error), "Exit 1 when a new finding is at least this severe (error|warning; infos never fail)")
	fl.StringVar(&f.target, "target", "", "Who installs the catalogs: olmv0 (classic OLM, OpenShift 4.x; the default) or olmv1, for which OLM v1's CRD preflight and olmv1-unsupported findings are errors (overrides the configuration)")
	fl.StringVar(&f.config, "config", "", "Lint configuration file (default: "+config.FileName+" in the linted path or a directory above it, up to the repository root)")
	fl.BoolVar(&f.printCfg, "print-config", false, "Print the effective configuration (YAML) and exit")
	fl.BoolVar(&f.opts.NoWebhooks, "olmv1-no-webhooks", false, "olmv1-unsupported: the cluster's OLM v1 refuses bundles with webhooks (OpenShift 4.18)")
	fl.StringVar(&f.report.Summary, "summary", "", "Also append the pull-request summary (as -o markdown writes it) to this file, e.g. $GITHUB_STEP_SUMMARY")
	fl.StringVar((*string)(&f.opts.Released), "released", string(lint.ReleasedHide), "Without --baseline, what to report of what an operator directory's catalogs already hold and of the bundle directories they superseded: hide (only what breaks an install or upgrade from a catalog), warn (the rest as warnings, marked released or superseded) or check (every bundle as a pull request's own)")
	fl.StringVar(&f.opts.CacheDir, "cache-dir", "", "Where operator-sdk's verdicts on bundle directories are kept by content, for the next run (default: opm/lint in the user's cache directory, such as ~/.cache; none keeps nothing)")
	addPlatformFlag(fl, &f.platform)
	return cmd
}

// lintCacheDir is where --cache-dir says operator-sdk's verdicts are
// kept: "" for nowhere.
func lintCacheDir(flag string) string {
	switch flag {
	case "none":
		return ""
	case "":
		dir, err := os.UserCacheDir()
		if err != nil {
			return "" // no home: nothing is kept
		}
		return filepath.Join(dir, "opm", "lint")
	}
	return flag
}

// buildSalt tells this build from another for what lint keeps across
// runs: its version, commit and build date; for a build without them,
// the size and time of the executable and of the opm-osdk it runs too
// (which may be built apart from it).
func buildSalt() string {
	salt := opmVersion() + "\x00" + gitCommit + "\x00" + buildDate
	if opmVersion() == "unknown" {
		exe, _ := os.Executable()
		helper, _ := suites.Locate()
		for _, p := range []string{exe, helper} {
			if st, err := os.Stat(p); p != "" && err == nil {
				salt += fmt.Sprintf("\x00%d\x00%d", st.Size(), st.ModTime().UnixNano())
			}
		}
	}
	return salt
}

// lintLong is lint's Long help, with the rules from their table.
func lintLong() string {
	var rules strings.Builder
	for _, r := range lint.Rules() {
		fmt.Fprintf(&rules, "  %-27s [%s] %s\n", r.ID, r.Severity, r.Description)
	}
	return fmt.Sprintf(helpText("lint"), rules.String())
}

// runLint lints and writes the result; errReported means a finding
// reached --fail-on.
func runLint(cmd *cobra.Command, args []string, f *lintFlags, reg *registryFlags) error {
	if f.printCfg {
		return printLintConfig(cmd, args, f)
	}
	if len(args) == 0 {
		return usageError{errors.New("give at least one PATH: a catalog, bundle or operator directory, or an image reference")}
	}
	o := f.writeOptions("")
	if err := check(o); err != nil {
		return err
	}
	if err := reg.check(); err != nil {
		return err
	}
	opts := f.opts
	opts.CacheDir, opts.CacheSalt = lintCacheDir(opts.CacheDir), buildSalt()
	opts.Images = &render.Renderer{Images: reg.imageOptions(cmd, f.platform)}
	var err error
	if opts.Config, opts.Target, err = resolveLintConfig(f, args); err != nil {
		return err
	}
	res, err := lint.Lint(cmd.Context(), args, opts)
	if err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
	}
	if err := report.Write(cmd.OutOrStdout(), f.output.value, res, o); err != nil {
		return err
	}
	if !o.Passed(res) {
		return errReported
	}
	return nil
}

// printLintConfig writes the configuration a run would use.
func printLintConfig(cmd *cobra.Command, args []string, f *lintFlags) error {
	cfg, target, err := resolveLintConfig(f, args)
	if err != nil {
		return err
	}
	out, err := lint.EffectiveConfig(lint.Options{Rules: f.opts.Rules, Disable: f.opts.Disable, Config: cfg, Target: target}, args...)
	if err != nil {
		return err
	}
	_, err = cmd.OutOrStdout().Write(out)
	return err
}

// resolveLintConfig reads the lint configuration (--config, else the one
// found from the paths) and the target: --target, else the configuration's
// (lint.Options.Validate checks it).
func resolveLintConfig(f *lintFlags, args []string) (*config.Config, config.Target, error) {
	cfg, err := config.Resolve(f.config, args, lint.RuleIDs())
	if err != nil || f.target == "" {
		return cfg, cfg.Target, err
	}
	return cfg, config.Target(f.target), nil
}

// writeOptions are how a lint result, or a failure (why it could not
// lint), is written.
func (f *lintFlags) writeOptions(failure string) report.Options {
	o := f.report
	o.Baseline, o.SARIF, o.Failure = f.opts.Baseline, sarifOptions(), failure
	return o
}

// sarifOptions names opm in a SARIF log, with paths relative to the
// working directory.
func sarifOptions() sarif.Options {
	wd, _ := os.Getwd()
	return sarif.Options{ToolName: "opm", ToolVersion: opmVersion(), BaseDir: wd}
}
