package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/validate"
)

func newInitCmd() *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
	var defaultChannel, iconFile, descriptionFile string
	cmd := &cobra.Command{
		Use:   "init <packageName>",
		Short: "Generate an olm.package blob for a file-based catalog",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// Upstream writes whatever it is given and succeeds; a blob
			// that validate would refuse is no start for a package.
			if err := checkInitArgs(args[0], defaultChannel, cmd.Flags().Changed("default-channel")); err != nil {
				return err
			}
			pkg := declcfg.Package{Schema: declcfg.SchemaPackage, Name: args[0], DefaultChannel: defaultChannel}
			if iconFile != "" {
				data, err := os.ReadFile(iconFile)
				if err != nil {
					return fmt.Errorf("open icon file: %w", err)
				}
				mediaType, err := declcfg.IconMediaType(data)
				if err != nil {
					return fmt.Errorf("icon file %s: %w", declcfg.QuoteFileName(iconFile), err)
				}
				pkg.Icon = &declcfg.Icon{Data: data, MediaType: mediaType}
			}
			if descriptionFile != "" {
				data, err := os.ReadFile(descriptionFile)
				if err != nil {
					return fmt.Errorf("open description file: %w", err)
				}
				pkg.Description = string(data)
			}
			cfg := &declcfg.DeclarativeConfig{Packages: []declcfg.Package{pkg}}
			return declcfg.Write(cfg, cmd.OutOrStdout(), declcfg.Format(output.value))
		},
	}
	f := cmd.Flags()
	f.StringVarP(&defaultChannel, "default-channel", "c", "", "The channel that subscriptions will default to if unspecified")
	f.StringVarP(&iconFile, "icon", "i", "", "Path to package's icon")
	f.StringVarP(&descriptionFile, "description", "d", "", "Path to the operator's README.md (or other documentation)")
	f.VarP(&output, "output", "o", "Output format (json|yaml)")
	return cmd
}

// checkInitArgs refuses a package name that opm validate would refuse and
// a --default-channel given but empty.
func checkInitArgs(name, defaultChannel string, channelSet bool) error {
	if name == "" {
		return errors.New("the package name is empty: give the name of the package, e.g. opm init my-operator")
	}
	if msgs := validate.PackageNameProblems(name); len(msgs) > 0 {
		err := fmt.Sprintf("invalid package name %q: %s", name, strings.Join(msgs, "; "))
		if s := labelLike(name); s != "" {
			err += fmt.Sprintf("; for instance opm init %s", s)
		}
		return errors.New(err)
	}
	if channelSet && defaultChannel == "" {
		return errors.New("--default-channel is empty: name the channel that subscriptions default to (e.g. --default-channel stable), or leave the flag out")
	}
	return nil
}

// labelLike is name made a valid package name (lower case, runs of other
// characters as one '-', at most 63 characters), or "" if nothing is left.
func labelLike(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	s := b.String()
	if len(s) > 63 {
		s = strings.TrimRight(s[:63], "-")
	}
	return s
}
