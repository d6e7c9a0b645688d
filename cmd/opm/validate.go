package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/encoding/sarif"
	"github.com/fbcat/opm/render"
	"github.com/fbcat/opm/validate"
)

// validateFlags are the flags of opm validate.
type validateFlags struct {
	output      outputFlag
	schemaPaths []string
	maxProblems int
}

func newValidateCmd() *cobra.Command {
	f := &validateFlags{output: outputFlag{allowed: []string{"json", "yaml", "sarif"}}}
	cmd := &cobra.Command{
		Use:     "validate <directory>",
		Short:   "Validate a file-based catalog",
		Long:    helpText("validate"),
		Example: helpText("validate.example"),
		// The argument count is checked by runValidate, so that -o writes
		// its document for that mistake too.
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeDirs,
		Annotations:       map[string]string{failureExit2: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			err := runValidate(cmd, args, f)
			if err != nil && !errors.Is(err, errReported) {
				writeValidateFailure(cmd, f, err)
			}
			return err
		},
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		writeValidateFailure(c, f, err) // if -o was read before the mistake
		return flagError(c, err)
	})
	cmd.Flags().VarP(&f.output, "output", "o", "Output format for the result: a list of problems and whether validation passed (json|yaml), or a SARIF 2.1.0 log (sarif)")
	cmd.Flags().StringArrayVar(&f.schemaPaths, "schema", nil, "CUE file or directory of CUE files with definitions for your own schemas (repeatable)")
	cmd.Flags().IntVar(&f.maxProblems, "max-problems", 0, "Report at most this many problems, and how many more were left out (0: every problem)")
	return cmd
}

// runValidate validates the directory args name and writes the result;
// errReported means the catalog is invalid, any other error that
// validation could not run.
func runValidate(cmd *cobra.Command, args []string, f *validateFlags) error {
	if err := cobra.ExactArgs(1)(cmd, args); err != nil {
		return usageError{err}
	}
	if f.maxProblems < 0 {
		return badValue(fmt.Errorf("--max-problems must be 0 (no limit) or more, not %d", f.maxProblems))
	}
	dir := args[0]
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%q is not a directory", dir)
	}
	if err := notABundle(dir); err != nil {
		return err
	}
	user, err := validate.LoadUserSchemas(f.schemaPaths)
	if err != nil {
		return fmt.Errorf("--schema: %w", err)
	}
	res, err := validate.Validate(cmd.Context(), os.DirFS(dir), validate.Options{RootName: dir, Schemas: user})
	if err != nil {
		return err
	}
	if res.Passed() && res.Objects == 0 {
		return fmt.Errorf("%s holds no catalog objects (no JSON or YAML blob with a \"schema\" field): check the path; a file-based catalog is a directory of files such as PACKAGE/catalog.yaml", dir)
	}
	shown := capped(res.Problems, f.maxProblems)
	switch f.output.value {
	case "":
		writeValidateReport(cmd.ErrOrStderr(), res, shown)
	case "sarif":
		if err := writeSARIF(cmd.OutOrStdout(), shown, len(res.Problems)-len(shown)); err != nil {
			return err
		}
	default:
		if err := writeValidateResult(cmd.OutOrStdout(), f.output.value, res, shown); err != nil {
			return err
		}
	}
	if !res.Passed() {
		return errReported
	}
	return nil
}

// writeValidateFailure writes, for -o, the document saying that validation
// could not run and why. The error itself is printed on stderr as every
// command's is.
func writeValidateFailure(cmd *cobra.Command, f *validateFlags, err error) {
	msg := err.Error()
	switch f.output.value {
	case "":
		return
	case "sarif":
		_ = sarif.Write(cmd.OutOrStdout(), validate.SARIFFailure(msg, sarifOptions()))
	default:
		out := struct {
			Passed bool          `json:"passed"`
			Error  validateError `json:"error"`
		}{Error: validateError{Message: msg}}
		_ = jsonout.WriteAs(cmd.OutOrStdout(), f.output.value, out)
	}
}

// capped is the first max problems (all when max is 0).
func capped(problems declcfg.ErrorList, max int) declcfg.ErrorList {
	if max > 0 && len(problems) > max {
		return problems[:max]
	}
	return problems
}

// writeValidateReport prints the problems for people: one line per cause
// ("file:line:col: subject: message" for a problem of its own), then the
// warnings, one line per cause, then a summary.
func writeValidateReport(w io.Writer, res *validate.Result, shown declcfg.ErrorList) {
	for _, g := range validate.GroupProblems(shown) {
		fmt.Fprintln(w, g.String())
	}
	writeWarnings(w, res.Warnings)
	if !res.GraphChecked {
		fmt.Fprintln(w, "note: checks across objects (channels, upgrade graphs, references) were skipped because some documents could not be read; fix those first")
	}
	if n := len(res.Problems); n > 0 {
		files := map[string]bool{}
		for _, p := range res.Problems {
			files[p.File] = true
		}
		fmt.Fprintf(w, "%d %s in %d %s", n, plural(n, "problem", "problems"), len(files), plural(len(files), "file", "files"))
		if left := n - len(shown); left > 0 {
			fmt.Fprintf(w, " (%d more left out by --max-problems %d)", left, len(shown))
		}
		fmt.Fprintln(w)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// validateOutput is the structured result. "passed" and "error.message"
// are what upstream prints; "problems" lists each problem on its own.
type validateOutput struct {
	Passed       bool             `json:"passed"`
	Error        *validateError   `json:"error,omitempty"`
	Problems     []*declcfg.Error `json:"problems"`
	Warnings     []*declcfg.Error `json:"warnings"`
	Omitted      int              `json:"omitted,omitempty"`
	GraphChecked bool             `json:"graphChecked"`
}

type validateError struct {
	Message string `json:"message"`
}

// writeValidateResult writes the structured result with the problems
// shown (every problem unless --max-problems capped them; "omitted" counts
// the others).
func writeValidateResult(w io.Writer, format string, res *validate.Result, shown declcfg.ErrorList) error {
	out := validateOutput{Passed: res.Passed(), Problems: shown, Omitted: len(res.Problems) - len(shown), GraphChecked: res.GraphChecked}
	if out.Problems == nil {
		out.Problems = []*declcfg.Error{}
	}
	out.Warnings = make([]*declcfg.Error, len(res.Warnings))
	for i, w := range res.Warnings {
		out.Warnings[i] = w.At
	}
	if !res.Passed() {
		lines := make([]string, len(shown))
		for i, p := range shown {
			lines[i] = p.Error()
		}
		out.Error = &validateError{Message: strings.Join(lines, "\n")}
	}
	return jsonout.WriteAs(w, format, out)
}

// writeWarnings prints warnings about data that does not survive loading,
// one line per cause: the first place, and how many more there are.
func writeWarnings(w io.Writer, ws []declcfg.Warning) {
	for _, g := range declcfg.GroupWarnings(ws) {
		fmt.Fprintln(w, g)
	}
}

// writeSARIF writes a SARIF 2.1.0 log of the problems shown, with file
// names relative to the working directory.
func writeSARIF(w io.Writer, shown declcfg.ErrorList, omitted int) error {
	o := sarifOptions()
	o.Omitted = omitted
	return sarif.Write(w, validate.SARIF(shown, o))
}

// notABundle refuses a directory given for a catalog that is (or looks
// like) a registry+v1 bundle, which would otherwise fail on every manifest.
func notABundle(dir string) error {
	if render.IsBundleDir(dir) {
		return fmt.Errorf("%s is a registry+v1 bundle directory (manifests/ and metadata/), not a file-based catalog: opm render %s reads it (and writes its olm.bundle blob for a catalog)", dir, dir)
	}
	return render.BundleWithoutMetadata(dir)
}
