package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/catalogimage"
	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/generate"
	"github.com/fbcat/opm/image"
)

func newCatalogBuildCmd(f *catalogFlags) *cobra.Command {
	var tag, base string
	var platforms, labels []string
	cmd := &cobra.Command{
		Use:   "build DIR --tag REF --base-image REF",
		Short: "Build a catalog image without a container engine",
		Args:  exactArgs(1),
		RunE: f.run(func(cmd *cobra.Command, args []string) error {
			o, err := buildOptions(cmd, f, args[0], tag, base, platforms, labels)
			if err != nil {
				return err
			}
			res, err := catalogimage.Build(cmd.Context(), o)
			if err != nil {
				return err
			}
			for _, w := range res.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), w)
			}
			if f.output.value == "json" {
				return jsonout.Write(cmd.OutOrStdout(), res)
			}
			fmt.Fprintln(cmd.OutOrStdout(), res.Digest)
			return nil
		}),
	}
	fl := cmd.Flags()
	fl.StringVarP(&tag, "tag", "t", "", "Where the image goes: a registry reference (pushed), oci:PATH[:NAME] or oci-archive:FILE[:NAME]")
	fl.StringVar(&base, "base-image", generate.DefaultImage, "The image to build on; it must hold /bin/opm")
	fl.StringSliceVar(&platforms, "platform", nil, "Platforms to build, os/arch[/variant], comma-separated (default: every platform of the base)")
	fl.StringArrayVarP(&labels, "label", "l", nil, "A label to add, key=value (repeatable)")
	return cmd
}

// buildOptions turns the flags into the library's options.
func buildOptions(cmd *cobra.Command, f *catalogFlags, dir, tag, base string, platforms, labels []string) (catalogimage.Options, error) {
	o := catalogimage.Options{Dir: dir, Base: base, Tag: tag, Image: f.reg.imageOptions(cmd, platformFlag{})}
	if err := check(o); err != nil {
		return o, err
	}
	if err := f.reg.check(); err != nil {
		return o, usageError{err}
	}
	for _, p := range platforms {
		parsed, err := image.ParsePlatform(strings.TrimSpace(p))
		if err != nil {
			return o, badValue(fmt.Errorf("--platform: %w", err))
		}
		o.Platforms = append(o.Platforms, *parsed)
	}
	var err error
	if o.Labels, err = generate.ParseLabels(labels); err != nil {
		return o, badValue(fmt.Errorf("--label: %w", err))
	}
	if o.Time, err = image.SourceDateEpoch(); err != nil {
		return o, usageError{err}
	}
	return o, nil
}
