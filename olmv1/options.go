package olmv1

import (
	"strings"

	"github.com/fbcat/opm/option"
)

// The options olmv1's errors name (see option.Error).
const (
	optionInstallNamespace option.Name = "olmv1.ManifestOptions.InstallNamespace"
	optionWatchNamespace   option.Name = "olmv1.ManifestOptions.WatchNamespace"
	optionExtensionName    option.Name = "olmv1.RBACOptions.ExtensionName"
	optionServiceAccount   option.Name = "olmv1.RBACOptions.ServiceAccount"
)

// Validate checks the namespaces: an install namespace must be given,
// and each must be a name Kubernetes takes. Whether the bundle can watch
// the watch namespace is Manifests' to say.
func (o ManifestOptions) Validate() error {
	if o.InstallNamespace == "" {
		return option.Required(optionInstallNamespace, "say which namespace the bundle is installed in")
	}
	if errs := dns1123Label(o.InstallNamespace); errs != "" {
		return option.Errorf(option.Invalid, "%s %q: %s", optionInstallNamespace, o.InstallNamespace, errs)
	}
	if o.WatchNamespace == "" {
		return nil
	}
	if errs := dns1123Subdomain(o.WatchNamespace); len(errs) > 0 {
		return option.Errorf(option.Invalid, "%s %q: %s", optionWatchNamespace, o.WatchNamespace, strings.Join(errs, ", "))
	}
	return nil
}

// Validate checks the names of the ClusterExtension and of the
// installer's service account.
func (o RBACOptions) Validate() error {
	if o.ExtensionName == "" {
		return option.Required(optionExtensionName, "say what the ClusterExtension is called")
	}
	if errs := dns1123Subdomain(o.ExtensionName); len(errs) > 0 {
		return option.Errorf(option.Invalid, "%s %q: %s", optionExtensionName, o.ExtensionName, strings.Join(errs, ", "))
	}
	if errs := dns1123Subdomain(o.serviceAccountName()); len(errs) > 0 {
		return option.Errorf(option.Invalid, "%s %q: %s", optionServiceAccount, o.serviceAccountName(), strings.Join(errs, ", "))
	}
	return nil
}

// Validate checks the install's namespaces and names, the extension's
// being the package's when none is given.
func (o InstallOptions) Validate() error {
	if err := o.ManifestOptions().Validate(); err != nil {
		return err
	}
	if o.ExtensionName == "" && o.Package == "" {
		return nil // the bundle's package, known once resolved
	}
	return o.rbacOptions(o.Package).Validate()
}

// rbacOptions are the RBAC options of the install of package pkg.
func (o InstallOptions) rbacOptions(pkg string) RBACOptions {
	ext := o.ExtensionName
	if ext == "" {
		ext = pkg
	}
	return RBACOptions{ExtensionName: ext, ServiceAccount: o.ServiceAccount}
}
