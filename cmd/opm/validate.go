package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/render"
	"github.com/fbcat/opm/validate"
)

// validateFlags are the flags of opm validate.
type validateFlags struct {
	output      outputFlag
	schemaPaths []string
	maxProblems int
}

// out is how the result is written.
func (f *validateFlags) out() validate.Output {
	return validate.Output{Format: f.output.value, MaxProblems: f.maxProblems, SARIF: sarifOptions(), Words: flagOf}
}

func newValidateCmd() *cobra.Command {
	f := &validateFlags{output: outputFlag{allowed: validate.Formats}}
	cmd := &cobra.Command{
		Use:   "validate <directory>",
		Short: "Validate a file-based catalog",
		// The argument count is checked by runValidate, so that -o writes
		// its document for that mistake too.
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeDirs,
		Annotations:       map[string]string{failureExit2: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			err := runValidate(cmd, args, f)
			if err != nil && !errors.Is(err, errReported) {
				_ = f.out().Write(cmd.OutOrStdout(), nil, nil, said(err))
			}
			return err
		},
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		_ = f.out().Write(c.OutOrStdout(), nil, nil, err.Error()) // if -o was read before the mistake
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
	if err := check(f.out()); err != nil {
		return err
	}
	if err := render.NotABundle(args[0]); err != nil {
		return err
	}
	user, err := validate.LoadUserSchemas(f.schemaPaths)
	if err != nil {
		return err
	}
	defer withGCPercent(validateGCPercent)()
	res, err := validate.Dir(cmd.Context(), args[0], validate.Options{Schemas: user})
	if err != nil {
		return err
	}
	if err := f.out().Write(cmd.OutOrStdout(), cmd.ErrOrStderr(), res, ""); err != nil {
		return err
	}
	if !res.Passed() {
		return errReported
	}
	return nil
}
