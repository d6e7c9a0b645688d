// Manifests: the plain Kubernetes objects OLM v1 applies for a bundle.

package olmv1

import (
	"fmt"
	"strings"
)

// ManifestOptions says how the bundle is installed.
type ManifestOptions struct {
	// InstallNamespace is the ClusterExtension's spec.namespace.
	InstallNamespace string
	// WatchNamespace, if set, installs the bundle for one namespace
	// (SingleNamespace, or OwnNamespace when it is InstallNamespace): the
	// ClusterExtension's spec.config.inline.watchNamespace, which needs
	// the SingleOwnNamespaceInstallSupport feature gate.
	WatchNamespace string
	// NoWebhooks refuses bundles with webhooks (OpenShift 4.18).
	NoWebhooks bool
}

// Checks are the checks a bundle installed with these options must
// pass (see Unsupported).
func (o ManifestOptions) Checks() CheckOptions {
	return CheckOptions{NoWebhooks: o.NoWebhooks, SingleOwnNamespace: o.WatchNamespace != ""}
}

// ManifestSet is what OLM v1 applies for a bundle.
type ManifestSet struct {
	// InstallNamespace is the namespace the manifests are made for.
	InstallNamespace string
	// Objects in apply order (see SortObjects).
	Objects []Object
	// TargetNamespaces are the namespaces the operator watches ("" for
	// all of them): its deployments' olm.targetNamespaces annotation.
	TargetNamespaces []string
	// Notes tell what the install needs beyond the objects: feature gates,
	// cert-manager, and what could not be reproduced.
	Notes []string
	// Warnings point at what the bundle has that operator-controller
	// drops (members of a deployment spec or CRD its types do not know); each
	// is among the Notes too.
	Warnings []Reason
}

// UnsupportedError is the error for a bundle OLM v1 cannot install.
type UnsupportedError struct {
	Bundle  string
	Reasons []Reason
}

func (e *UnsupportedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "OLM v1 cannot install bundle %q:", e.Bundle)
	for _, r := range e.Reasons {
		b.WriteString("\n  " + r.String())
	}
	return b.String()
}

// Manifests returns the objects operator-controller's registry+v1 renderer
// makes of the bundle for an install in opts.InstallNamespace, with
// cert-manager as the certificate provider of webhooks, its default. A
// bundle OLM v1 cannot install is refused with an *UnsupportedError.
func Manifests(b *Bundle, opts ManifestOptions) (*ManifestSet, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if reasons := Unsupported(b, opts.Checks()); len(reasons) > 0 {
		return nil, &UnsupportedError{Bundle: b.Name, Reasons: reasons}
	}
	if !b.HasManifests() {
		return nil, fmt.Errorf("%s: the catalog carries only the bundle's olm.csv.metadata, not its manifests: render the bundle image %s instead", b.describe(), b.Image)
	}
	targets, notes, err := b.targetNamespaces(opts)
	if err != nil {
		return nil, err
	}
	g, err := newGenerator(b, opts.InstallNamespace, targets)
	if err != nil {
		return nil, err
	}
	objs, err := g.all()
	if err != nil {
		return nil, err
	}
	SortObjects(objs)
	notes = append(notes, g.notes...)
	for _, w := range g.warnings {
		notes = append(notes, "warning: "+w.String())
	}
	return &ManifestSet{InstallNamespace: opts.InstallNamespace, Objects: objs, TargetNamespaces: targets, Notes: notes, Warnings: g.warnings}, nil
}

// gateNote is the note for an install that needs the
// SingleOwnNamespaceInstallSupport feature gate.
const gateNote = "installing for one watch namespace needs operator-controller's SingleOwnNamespaceInstallSupport feature gate (on by default upstream since it went GA; OpenShift: the NewOLMOwnSingleNamespace Technology Preview feature gate)"

// targetNamespaces works out the namespaces the operator watches, with
// operator-controller's rules for the watchNamespace configuration.
func (b *Bundle) targetNamespaces(opts ManifestOptions) ([]string, []string, error) {
	m := b.supportedModes()
	all, single, own := m["AllNamespaces"], m["SingleNamespace"], m["OwnNamespace"]
	watch, install := opts.WatchNamespace, opts.InstallNamespace
	modes := sortedModes(m)
	if watch == "" {
		if all {
			return []string{""}, nil, nil
		}
		return nil, nil, fmt.Errorf("bundle %q supports install modes %s, not AllNamespaces: give a watch namespace (the ClusterExtension's spec.config.inline.watchNamespace)", b.Name, modes)
	}
	switch {
	case !single && !own:
		return nil, nil, fmt.Errorf("bundle %q supports install modes %s: it takes no watch namespace (operator-controller: unknown field \"watchNamespace\"); leave it out", b.Name, modes)
	case watch == install && !own:
		return nil, nil, fmt.Errorf("invalid watch namespace %q: the bundle does not support OwnNamespace (install modes %s), so it cannot watch its install namespace; pick another namespace", watch, modes)
	case watch != install && !single:
		return nil, nil, fmt.Errorf("invalid watch namespace %q: the bundle does not support SingleNamespace (install modes %s), so the watch namespace must be the install namespace %q", watch, modes, install)
	}
	notes := []string{gateNote}
	if watch == install {
		notes = append(notes, "OwnNamespace install: the operator watches its install namespace "+watch)
		if !all && !single {
			notes = append(notes, "the bundle supports only OwnNamespace: operator-controller installs it so without a watchNamespace; leave spec.config out of the ClusterExtension")
		}
	} else {
		notes = append(notes, "SingleNamespace install: the operator watches namespace "+watch)
	}
	return []string{watch}, notes, nil
}

// dns1123Label checks a namespace name; "" if it is good.
func dns1123Label(s string) string {
	if len(s) > 63 || strings.Contains(s, ".") || len(dns1123Subdomain(s)) > 0 {
		return "a namespace name must be a lowercase RFC 1123 label: at most 63 characters, lower case alphanumeric characters or '-', starting and ending with an alphanumeric character"
	}
	return ""
}

// saNameOrDefault is the service account a permission names, "default"
// for none.
func saNameOrDefault(name string) string {
	if name == "" {
		return "default"
	}
	return name
}
