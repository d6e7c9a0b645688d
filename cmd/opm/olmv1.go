package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/olmv1"
	"github.com/fbcat/opm/render"
)

// olmv1Flags are the flags the olmv1 subcommands share.
type olmv1Flags struct {
	reg            *registryFlags
	platform       platformFlag
	output         outputFlag
	namespace      string
	watchNamespace string
	noWebhooks     bool
}

func newOLMv1Cmd(reg *registryFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "olmv1",
		Short:       "What OLM v1 installs from a bundle, its installer's RBAC, a ready ClusterExtension",
		Args:        noArgs,
		Annotations: olmv1Annotations,
		RunE:        func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newOLMv1ManifestsCmd(reg), newOLMv1RBACCmd(reg), newOLMv1InstallCmd(reg), newOLMv1ListCmd(reg))
	return cmd
}

// olmv1Annotations make failures to run exit 2; unsupported bundles are
// reported and exit 1.
var olmv1Annotations = map[string]string{failureExit2: "true"}

// addInstallFlags adds the flags of the commands that install.
func (o *olmv1Flags) addInstallFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.namespace, "namespace", "n", "", "Install namespace (the ClusterExtension's spec.namespace)")
	f.StringVar(&o.watchNamespace, "watch-namespace", "", "Namespace the operator watches, for bundles without AllNamespaces (spec.config.inline.watchNamespace; needs the SingleOwnNamespaceInstallSupport feature gate)")
	f.BoolVar(&o.noWebhooks, "no-webhooks", false, "Refuse bundles with webhooks, as OpenShift 4.18's OLM v1 does")
	addPlatformFlag(f, &o.platform)
	_ = cmd.MarkFlagRequired("namespace")
}

// manifestOptions are the manifest options the flags say.
func (o *olmv1Flags) manifestOptions() olmv1.ManifestOptions {
	return olmv1.ManifestOptions{InstallNamespace: o.namespace, WatchNamespace: o.watchNamespace, NoWebhooks: o.noWebhooks}
}

// openBundle reads a bundle directory or image.
func (o *olmv1Flags) openBundle(cmd *cobra.Command, ref string) (*olmv1.Bundle, error) {
	if err := o.reg.check(); err != nil {
		return nil, err
	}
	return olmv1.OpenBundle(cmd.Context(), ref, o.reg.imageOptions(cmd, o.platform))
}

// write writes objects in the chosen format, notes first as comments.
func (o *olmv1Flags) write(w io.Writer, objs []olmv1.Object, notes []string) error {
	if o.output.value == "json" {
		return olmv1.WriteJSON(w, objs)
	}
	if _, err := io.WriteString(w, olmv1.NotesText(notes)); err != nil {
		return err
	}
	return olmv1.WriteYAML(w, objs)
}

// reportUnsupported prints the reasons of an unsupported bundle and
// makes the command exit 1; other errors pass through.
func reportUnsupported(cmd *cobra.Command, err error) error {
	var u *olmv1.UnsupportedError
	if errors.As(err, &u) {
		fmt.Fprintln(cmd.ErrOrStderr(), u.Error())
		return errReported
	}
	return err
}

func newOLMv1ManifestsCmd(reg *registryFlags) *cobra.Command {
	o := &olmv1Flags{reg: reg, output: outputFlag{value: "yaml", allowed: []string{"yaml", "json"}}}
	cmd := &cobra.Command{
		Use:         "manifests BUNDLE --namespace NS",
		Short:       "Print the objects OLM v1 applies for a bundle",
		Args:        exactArgs(1),
		Annotations: olmv1Annotations,
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := o.openBundle(cmd, args[0])
			if err != nil {
				return err
			}
			r, err := olmv1.Manifests(b, o.manifestOptions())
			if err != nil {
				return reportUnsupported(cmd, err)
			}
			for _, w := range r.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+w.String())
			}
			return o.write(cmd.OutOrStdout(), r.Objects, r.Notes)
		},
	}
	o.addInstallFlags(cmd)
	cmd.Flags().VarP(&o.output, "output", "o", "Output format (yaml|json)")
	return cmd
}

func newOLMv1RBACCmd(reg *registryFlags) *cobra.Command {
	o := &olmv1Flags{reg: reg, output: outputFlag{value: "yaml", allowed: []string{"yaml", "json"}}}
	var rbac olmv1.RBACOptions
	cmd := &cobra.Command{
		Use:         "rbac BUNDLE --namespace NS --extension-name NAME",
		Short:       "Print the least-privilege RBAC of the service account that installs a bundle",
		Args:        exactArgs(1),
		Annotations: olmv1Annotations,
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := o.openBundle(cmd, args[0])
			if err != nil {
				return err
			}
			r, err := olmv1.Manifests(b, o.manifestOptions())
			if err != nil {
				return reportUnsupported(cmd, err)
			}
			objs, err := olmv1.InstallerRBAC(r, rbac)
			if err != nil {
				return err
			}
			return o.write(cmd.OutOrStdout(), objs, nil)
		},
	}
	o.addInstallFlags(cmd)
	f := cmd.Flags()
	f.VarP(&o.output, "output", "o", "Output format (yaml|json)")
	f.StringVar(&rbac.ExtensionName, "extension-name", "", "Name of the ClusterExtension")
	f.StringVar(&rbac.ServiceAccount, "service-account", "", "Installer service account (default <extension-name>-installer)")
	_ = cmd.MarkFlagRequired("extension-name")
	return cmd
}

func newOLMv1InstallCmd(reg *registryFlags) *cobra.Command {
	o := &olmv1Flags{reg: reg, output: outputFlag{value: "yaml", allowed: []string{"yaml", "json"}}}
	var opts olmv1.InstallOptions
	var catalog string
	cmd := &cobra.Command{
		Use:         "install PACKAGE --catalog CATALOG --namespace NS",
		Short:       "Print a stream that installs a package with OLM v1",
		Args:        exactArgs(1),
		Annotations: olmv1Annotations,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.reg.check(); err != nil {
				return err
			}
			opts.Package, opts.Namespace, opts.WatchNamespace, opts.NoWebhooks = args[0], o.namespace, o.watchNamespace, o.noWebhooks
			b, err := olmv1.ResolveBundle(cmd.Context(), render.Renderer{Images: o.reg.imageOptions(cmd, o.platform)}, catalog, opts)
			if err != nil {
				return reportUnsupported(cmd, err)
			}
			in, err := olmv1.Install(b, opts)
			if err != nil {
				return reportUnsupported(cmd, err)
			}
			return o.write(cmd.OutOrStdout(), in.Objects, in.Notes)
		},
	}
	o.addInstallFlags(cmd)
	f := cmd.Flags()
	f.VarP(&o.output, "output", "o", "Output format (yaml|json)")
	f.StringVar(&catalog, "catalog", "", "Catalog directory, image, or catalogd HTTP API URL")
	f.StringVar(&opts.Version, "version", "", "Version range of the ClusterExtension (default: the resolved bundle's version)")
	f.StringSliceVar(&opts.Channels, "channel", nil, "Channel(s) to install from (default: any)")
	f.StringVar(&opts.ServiceAccount, "service-account", "", "Installer service account (default <extension-name>-installer)")
	f.StringVar(&opts.ExtensionName, "extension-name", "", "Name of the ClusterExtension (default: the package name)")
	_ = cmd.MarkFlagRequired("catalog")
	return cmd
}

func newOLMv1ListCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "text", allowed: []string{"text", "json"}}
	var pkg string
	var check olmv1.CheckOptions
	var platform platformFlag
	cmd := &cobra.Command{
		Use:         "list CATALOG",
		Short:       "List the bundles of a catalog OLM v1 can install, and why not the others",
		Args:        exactArgs(1),
		Annotations: olmv1Annotations,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			c, err := olmv1.LoadCatalog(cmd.Context(), render.Renderer{Images: reg.imageOptions(cmd, platform)}, args[0])
			if err != nil {
				return err
			}
			listing, err := c.List(pkg, check)
			if err != nil {
				return err
			}
			if output.value == "json" {
				err = jsonout.Write(cmd.OutOrStdout(), listing)
			} else {
				err = olmv1.WriteListing(cmd.OutOrStdout(), listing)
			}
			if err == nil {
				err = unjudged(cmd, listing, output.value == "json")
			}
			return err
		},
	}
	f := cmd.Flags()
	f.VarP(&output, "output", "o", "Output format (text|json)")
	f.StringVar(&pkg, "package", "", "Only this package")
	f.BoolVar(&check.NoWebhooks, "no-webhooks", false, "Refuse bundles with webhooks, as OpenShift 4.18's OLM v1 does")
	f.BoolVar(&check.SingleOwnNamespace, "single-own-namespace", false, "Accept bundles without AllNamespaces (the SingleOwnNamespaceInstallSupport feature gate)")
	addPlatformFlag(f, &platform)
	return cmd
}

// unjudged says how many listed bundles could not be read, if any, and
// fails then: their rows are written, but OLM v1's verdict on them is
// unknown.
func unjudged(cmd *cobra.Command, listing []olmv1.Listing, json bool) error {
	n := olmv1.Unjudged(listing)
	if n == 0 {
		return nil
	}
	what := fmt.Sprintf("%d bundles could not be read, so whether OLM v1 can install them", n)
	if n == 1 {
		what = "1 bundle could not be read, so whether OLM v1 can install it"
	}
	where := "why under the table"
	if json {
		where = "each row's \"unreadable\""
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s is unknown (see %s); the other rows are judged\n", what, where)
	return errReported
}
