package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/olmv1"
	"github.com/fbcat/opm/render"
)

// olmv1Flags are the flags the olmv1 subcommands share.
type olmv1Flags struct {
	reg      *registryFlags
	platform platformFlag
	output   outputFlag
	manifest olmv1.ManifestOptions
}

func newOLMv1Cmd(reg *registryFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "olmv1",
		Short: "What OLM v1 installs from a bundle, its installer's RBAC, a ready ClusterExtension",
		Args:  noArgs,
		// failures to run exit 2; unsupported bundles are reported and
		// exit 1 (every subcommand's)
		Annotations: map[string]string{failureExit2: "true"},
		RunE:        func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newOLMv1ManifestsCmd(reg), newOLMv1RBACCmd(reg), newOLMv1InstallCmd(reg), newOLMv1ListCmd(reg))
	return cmd
}

// newOLMv1Flags are the flags of a subcommand that writes objects, with
// the flags of the commands that install (addInstallFlags) added to cmd.
func newOLMv1Flags(reg *registryFlags, cmd *cobra.Command) *olmv1Flags {
	o := &olmv1Flags{reg: reg, output: outputFlag{value: "yaml", allowed: []string{"yaml", "json"}}}
	f := cmd.Flags()
	f.StringVarP(&o.manifest.InstallNamespace, "namespace", "n", "", "Install namespace (the ClusterExtension's spec.namespace)")
	f.StringVar(&o.manifest.WatchNamespace, "watch-namespace", "", "Namespace the operator watches, for bundles without AllNamespaces (spec.config.inline.watchNamespace; needs the SingleOwnNamespaceInstallSupport feature gate)")
	f.BoolVar(&o.manifest.NoWebhooks, "no-webhooks", false, "Refuse bundles with webhooks, as OpenShift 4.18's OLM v1 does")
	addPlatformFlag(f, &o.platform)
	_ = cmd.MarkFlagRequired("namespace")
	f.VarP(&o.output, "output", "o", "Output format (yaml|json)")
	return o
}

// manifests reads a bundle directory or image and makes the objects
// OLM v1 applies for it.
func (o *olmv1Flags) manifests(cmd *cobra.Command, ref string) (*olmv1.ManifestSet, error) {
	if err := o.reg.check(); err != nil {
		return nil, err
	}
	if err := check(o.manifest); err != nil {
		return nil, err
	}
	b, err := olmv1.OpenBundle(cmd.Context(), ref, o.reg.imageOptions(cmd, o.platform))
	if err != nil {
		return nil, err
	}
	r, err := olmv1.Manifests(b, o.manifest)
	return r, reportUnsupported(cmd, err)
}

// reportUnsupported prints the reasons of an unsupported bundle and
// makes the command exit 1; other errors pass through.
func reportUnsupported(cmd *cobra.Command, err error) error {
	var u *olmv1.UnsupportedError
	var unjudged *olmv1.UnjudgedError
	if errors.As(err, &u) || errors.As(err, &unjudged) {
		fmt.Fprintln(cmd.ErrOrStderr(), err.Error())
		return errReported
	}
	return err
}

func newOLMv1ManifestsCmd(reg *registryFlags) *cobra.Command {
	var o *olmv1Flags
	cmd := &cobra.Command{
		Use:   "manifests BUNDLE --namespace NS",
		Short: "Print the objects OLM v1 applies for a bundle",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := o.manifests(cmd, args[0])
			if err != nil {
				return err
			}
			for _, w := range r.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+w.String())
			}
			return olmv1.WriteObjects(cmd.OutOrStdout(), o.output.value, r.Objects, r.Notes)
		},
	}
	o = newOLMv1Flags(reg, cmd)
	return cmd
}

func newOLMv1RBACCmd(reg *registryFlags) *cobra.Command {
	var o *olmv1Flags
	var rbac olmv1.RBACOptions
	cmd := &cobra.Command{
		Use:   "rbac BUNDLE --namespace NS --extension-name NAME",
		Short: "Print the least-privilege RBAC of the service account that installs a bundle",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := check(rbac); err != nil {
				return err
			}
			r, err := o.manifests(cmd, args[0])
			if err != nil {
				return err
			}
			objs, err := olmv1.InstallerRBAC(r, rbac)
			if err != nil {
				return err
			}
			return olmv1.WriteObjects(cmd.OutOrStdout(), o.output.value, objs, nil)
		},
	}
	o = newOLMv1Flags(reg, cmd)
	f := cmd.Flags()
	f.StringVar(&rbac.ExtensionName, "extension-name", "", "Name of the ClusterExtension")
	f.StringVar(&rbac.ServiceAccount, "service-account", "", "Installer service account (default <extension-name>-installer)")
	_ = cmd.MarkFlagRequired("extension-name")
	return cmd
}

func newOLMv1InstallCmd(reg *registryFlags) *cobra.Command {
	var o *olmv1Flags
	var opts olmv1.InstallOptions
	var catalog string
	cmd := &cobra.Command{
		Use:   "install PACKAGE --catalog CATALOG --namespace NS",
		Short: "Print a stream that installs a package with OLM v1",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.reg.check(); err != nil {
				return err
			}
			opts.Package, opts.Namespace, opts.WatchNamespace, opts.NoWebhooks = args[0], o.manifest.InstallNamespace, o.manifest.WatchNamespace, o.manifest.NoWebhooks
			if err := check(opts); err != nil {
				return err
			}
			b, err := olmv1.ResolveBundle(cmd.Context(), render.Renderer{Images: o.reg.imageOptions(cmd, o.platform)}, catalog, opts)
			if err != nil {
				return reportUnsupported(cmd, err)
			}
			in, err := olmv1.Install(b, opts)
			if err != nil {
				return reportUnsupported(cmd, err)
			}
			return olmv1.WriteObjects(cmd.OutOrStdout(), o.output.value, in.Objects, in.Notes)
		},
	}
	o = newOLMv1Flags(reg, cmd)
	f := cmd.Flags()
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
		Use:   "list CATALOG",
		Short: "List the bundles of a catalog OLM v1 can install, and why not the others",
		Args:  exactArgs(1),
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
			return reportUnsupported(cmd, olmv1.WriteListings(cmd.OutOrStdout(), output.value, listing))
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
