package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/catalogimage"
	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/generate"
	"github.com/fbcat/opm/image"
)

const catalogBuildLong = `Build the catalog image of a file-based catalog directory in process,
with no container engine: the image "opm generate dockerfile" describes,
for one or more platforms.

The catalog is checked first as the Dockerfile's "opm serve /configs
--cache-only" step checks it; a catalog that cannot be served is refused
with the file named, and nothing is written.

Each platform's image is the base image's image for that platform plus
one layer holding the catalog at /configs and an empty /tmp/cache, with
the base's configuration, the label
operators.operatorframework.io.index.configs.v1=/configs and the --label
values, entrypoint ["/bin/opm"] and command
["serve", "/configs", "--cache-dir=/tmp/cache"]. The base must hold
/bin/opm: this opm, which keeps no serve cache, or upstream's, which gets
--cache-enforce-integrity=false (it builds its cache when it starts; a
warning says so).

Without --platform every platform of the base is built; with one platform
the result is an image, with several a multi-platform image (a list of
the images per platform).

--tag is a registry reference (pushed; blobs the registry has are not sent
again, and layers of a base on the same registry are mounted from it),
oci:PATH[:NAME] (an OCI image layout) or oci-archive:FILE[:NAME] (written
whole or not at all). The same catalog, base and flags give the same
digest: files and the image are dated $SOURCE_DATE_EPOCH (default
1970-01-01), owned by root, sorted, with fixed modes.

The digest is printed; -o json prints {"digest", "platforms": [{"platform",
"digest"}], "size"}, size being the bytes of every distinct manifest,
configuration and layer of the result; a failure with -o json prints
{"error", "refused"} too.`

func newCatalogBuildCmd(f *catalogFlags) *cobra.Command {
	var tag, base string
	var platforms, labels []string
	cmd := &cobra.Command{
		Use:         "build DIR --tag REF --base-image REF",
		Short:       "Build a catalog image without a container engine",
		Long:        catalogBuildLong,
		Example:     helpText("catalog-build.example"),
		Args:        exactArgs(1),
		Annotations: catalogAnnotations,
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
	if tag == "" {
		return catalogimage.Options{}, usageError{errors.New(`required flag "--tag" not set: a registry reference, oci:PATH[:NAME] or oci-archive:FILE`)}
	}
	if err := f.reg.check(); err != nil {
		return catalogimage.Options{}, usageError{err}
	}
	o := catalogimage.Options{Dir: dir, Base: base, Tag: tag, Image: f.reg.imageOptions(cmd, platformFlag{})}
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
	if o.Time, err = sourceDateEpoch(); err != nil {
		return o, usageError{err}
	}
	return o, nil
}
