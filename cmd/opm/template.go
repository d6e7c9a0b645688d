package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/graph"
	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

func newRenderTemplateCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml", "mermaid"}}
	var migrateLevel string
	var platform platformFlag
	cmd := &cobra.Command{
		Use:   "render-template [TYPE] [FILE]",
		Short: "Render a catalog template (basic, semver or substitutes)",
		Args:  rangeArgs(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			kind, file, err := templateArgs(args)
			if err != nil {
				return err
			}
			if err := reg.check(); err != nil {
				return err
			}
			migrations, err := render.MigrationsFor(migrateLevel)
			if err != nil {
				return err
			}
			in, err := readTemplateInput(cmd, file)
			if err != nil {
				return err
			}
			if kind == "" {
				if kind, err = template.Detect(in); err != nil {
					return err
				}
			}
			bundles := template.ImageBundles(render.Renderer{Migrations: migrations, Images: reg.imageOptions(cmd, platform)})
			cfg, err := template.Expand(cmd.Context(), kind, in, bundles)
			if err != nil {
				return err
			}
			return writeRendered(cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, output.value)
		},
	}
	f := cmd.Flags()
	f.VarP(&output, "output", "o", "Output format (json|yaml|mermaid)")
	f.StringVar(&migrateLevel, "migrate-level", "", "Name of the last migration to run (default: none)\n"+render.MigrationHelp())
	addPlatformFlag(f, &platform)
	return cmd
}

// templateArgs reads [TYPE] [FILE]: one argument is a TYPE if it names
// one, else the FILE; no FILE, or "-", is standard input. An empty type
// means that it is detected from the template's schema.
func templateArgs(args []string) (template.Kind, string, error) {
	switch len(args) {
	case 0:
		return "", "-", nil
	case 1:
		if k, ok := template.ParseKind(args[0]); ok {
			return k, "-", nil
		}
		return "", args[0], nil
	}
	k, ok := template.ParseKind(args[0])
	if !ok {
		var names []string
		for _, k := range template.Kinds() {
			names = append(names, string(k))
		}
		return "", "", usageError{fmt.Errorf("invalid template type %q, must be one of: [%s]", args[0], strings.Join(names, " "))}
	}
	return k, args[1], nil
}

// readTemplateInput reads a template, or a catalog to convert, from a
// file or, for "-", from standard input.
func readTemplateInput(cmd *cobra.Command, file string) (template.Input, error) {
	if file == "-" {
		data, err := io.ReadAll(cmd.InOrStdin())
		if err != nil {
			return template.Input{}, fmt.Errorf("reading standard input: %w", err)
		}
		return template.Input{Name: "<stdin>", Data: data}, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return template.Input{}, err
	}
	return template.Input{Name: file, Data: data}, nil
}

// writeRendered writes a rendered template's catalog in the format asked
// for: mermaid draws its upgrade graph with OLM v0 semantics, as upstream.
func writeRendered(w, stderr io.Writer, cfg *declcfg.DeclarativeConfig, format string) error {
	switch format {
	case "mermaid":
		warnings, err := graph.WriteMermaid(w, cfg, graph.Options{V0Semantics: true})
		for _, warn := range warnings {
			fmt.Fprintf(stderr, "warning: %v\n", warn)
		}
		return err
	default:
		return declcfg.Write(cfg, w, declcfg.Format(format))
	}
}

func newConvertTemplateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "convert-template",
		Short: "Convert a file-based catalog to a template",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	for _, k := range []template.Kind{template.Basic, template.Substitutes} {
		output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
		sub := &cobra.Command{
			Use:   string(k) + " [<catalog-file> | -]",
			Short: fmt.Sprintf("Generate a %s template from a file-based catalog", k),
			Args:  rangeArgs(0, 1),
			RunE: func(cmd *cobra.Command, args []string) error {
				in, err := readTemplateInput(cmd, optionalArgOr(args, 0, "-"))
				if err != nil {
					return err
				}
				out, err := template.Convert(cmd.Context(), k, in, declcfg.Format(output.value))
				if err != nil {
					return err
				}
				_, err = cmd.OutOrStdout().Write(out)
				return err
			},
		}
		sub.Flags().VarP(&output, "output", "o", "Output format (json|yaml)")
		cmd.AddCommand(sub)
	}
	return cmd
}

func optionalArgOr(args []string, i int, def string) string {
	if i < len(args) {
		return args[i]
	}
	return def
}
