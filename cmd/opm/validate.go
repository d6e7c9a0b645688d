package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/validate"
)

func newValidateCmd() *cobra.Command {
	output := outputFlag{allowed: []string{"json", "yaml"}}
	var schemaPaths []string
	cmd := &cobra.Command{
		Use:   "validate <directory>",
		Short: "Validate the declarative index config",
		Long: `Validate the declarative config JSON file(s) in a given directory.

Every blob is checked against the schema for its kind, and the catalog as a
whole against OLM's rules (channels, upgrade graphs, versions, image
references, deprecations). Every problem is reported, each with its file and
line. With --schema, blobs of your own schemas are checked against your CUE
definitions: each definition with a concrete "schema" field applies to the
blobs of that schema.`,
		Example: `  opm validate catalog
  opm validate catalog -o json
  opm validate catalog --schema schemas/`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			st, err := os.Stat(dir)
			if err != nil {
				return err
			}
			if !st.IsDir() {
				return fmt.Errorf("%q is not a directory", dir)
			}
			user, err := validate.LoadUserSchemas(schemaPaths)
			if err != nil {
				return fmt.Errorf("--schema: %w", err)
			}
			res, err := validate.Validate(cmd.Context(), os.DirFS(dir), validate.Options{RootName: dir, Schemas: user})
			if err != nil {
				return err
			}
			if output.value != "" {
				if err := writeValidateResult(cmd.OutOrStdout(), output.value, res); err != nil {
					return err
				}
			} else {
				writeValidateReport(cmd.ErrOrStderr(), res)
			}
			if !res.Passed() {
				return errReported
			}
			return nil
		},
	}
	cmd.Flags().VarP(&output, "output", "o", "Output format for the result: a list of problems and whether validation passed (json|yaml)")
	cmd.Flags().StringArrayVar(&schemaPaths, "schema", nil, "CUE file or directory of CUE files with definitions for your own schemas (repeatable)")
	return cmd
}

// writeValidateReport prints the problems for people: one line each,
// "file:line:col: subject: message", then a summary.
func writeValidateReport(w io.Writer, res *validate.Result) {
	for _, p := range res.Problems {
		fmt.Fprintln(w, p.Error())
	}
	if !res.GraphChecked {
		fmt.Fprintln(w, "note: checks across objects (channels, upgrade graphs, references) were skipped because some documents could not be read; fix those first")
	}
	if n := len(res.Problems); n > 0 {
		files := map[string]bool{}
		for _, p := range res.Problems {
			files[p.File] = true
		}
		fmt.Fprintf(w, "%d %s in %d %s\n", n, plural(n, "problem", "problems"), len(files), plural(len(files), "file", "files"))
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
	GraphChecked bool             `json:"graphChecked"`
}

type validateError struct {
	Message string `json:"message"`
}

func writeValidateResult(w io.Writer, format string, res *validate.Result) error {
	out := validateOutput{Passed: res.Passed(), Problems: res.Problems, GraphChecked: res.GraphChecked}
	if out.Problems == nil {
		out.Problems = []*declcfg.Error{}
	}
	if !res.Passed() {
		lines := make([]string, len(res.Problems))
		for i, p := range res.Problems {
			lines[i] = p.Error()
		}
		out.Error = &validateError{Message: strings.Join(lines, "\n")}
	}
	return writeStructured(w, format, out)
}

// writeStructured writes v as indented JSON (without HTML escaping) or,
// for format "yaml", as YAML: the structured output of the commands that
// report results rather than catalogs.
func writeStructured(w io.Writer, format string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	data := buf.Bytes()
	if format == "yaml" {
		y, err := yaml.JSONToYAML(data)
		if err != nil {
			return err
		}
		data = y
	}
	_, err := w.Write(data)
	return err
}
