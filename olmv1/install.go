// Install: one stream that installs a package of a catalog with OLM v1.

package olmv1

import (
	"fmt"
	"strings"
)

// InstallOptions say what to install and how.
type InstallOptions struct {
	Selection
	// ExtensionName names the ClusterExtension; the package name if empty.
	ExtensionName string
	// Namespace is the install namespace, created by the stream.
	Namespace string
	// ServiceAccount is the installer's service account;
	// "<extension>-installer" if empty.
	ServiceAccount string
	// WatchNamespace and NoWebhooks are as for Manifests.
	WatchNamespace string
	NoWebhooks     bool
}

// ManifestOptions are the options Manifests makes the bundle's
// manifests with.
func (o InstallOptions) ManifestOptions() ManifestOptions {
	return ManifestOptions{InstallNamespace: o.Namespace, WatchNamespace: o.WatchNamespace, NoWebhooks: o.NoWebhooks}
}

// Installed is an install stream and what to know about it.
type Installed struct {
	// Objects: the Namespace, the installer's ServiceAccount and RBAC, and
	// the ClusterExtension, in apply order.
	Objects []Object
	// Notes are Manifests' notes and the install's own.
	Notes []string
}

// Install returns the objects that install bundle b, the bundle that
// opts.Selection resolves to: the namespace, the installer's least
// RBAC (see InstallerRBAC) and the ClusterExtension. An unsupported
// bundle is refused with an *UnsupportedError. When opts.Version is
// empty the ClusterExtension is pinned to b's version, so that what is
// installed is what the RBAC was made for.
func Install(b *Bundle, opts InstallOptions) (*Installed, error) {
	if opts.Package == "" {
		opts.Package = b.Package
	}
	rbacOpts := opts.rbacOptions(opts.Package)
	ext := rbacOpts.ExtensionName
	r, err := Manifests(b, opts.ManifestOptions())
	if err != nil {
		return nil, err
	}
	rbac, err := InstallerRBAC(r, rbacOpts)
	if err != nil {
		return nil, err
	}
	notes := r.Notes
	version := opts.Version
	if version == "" {
		version = b.Version
		notes = append(notes, fmt.Sprintf("the ClusterExtension is pinned to version %s, the bundle the RBAC was made for; an upgrade may need more RBAC", b.Version))
	} else {
		notes = append(notes, fmt.Sprintf("the RBAC is made for %s (version %s), the bundle version %q resolves to now; an upgrade within the range may need more RBAC", b.Name, b.Version, version))
	}
	objs := []Object{toObject(simple{typeMeta{"v1", "Namespace"}, objectMeta{Name: opts.Namespace}})}
	objs = append(objs, rbac...)
	objs = append(objs, toObject(clusterExtension(ext, rbacOpts.serviceAccountName(), version, opts)))
	SortObjects(objs)
	return &Installed{Objects: objs, Notes: notes}, nil
}

// extensionSpec is a ClusterExtension's spec (olm.operatorframework.io/v1).
type extensionSpec struct {
	Namespace      string            `json:"namespace"`
	ServiceAccount map[string]string `json:"serviceAccount"`
	Source         struct {
		SourceType string `json:"sourceType"`
		Catalog    struct {
			PackageName string   `json:"packageName"`
			Version     string   `json:"version,omitempty"`
			Channels    []string `json:"channels,omitempty"`
		} `json:"catalog"`
	} `json:"source"`
	Config *extensionConfig `json:"config,omitempty"`
}

// extensionConfig is the bundle configuration of a ClusterExtension.
type extensionConfig struct {
	ConfigType string            `json:"configType"`
	Inline     map[string]string `json:"inline"`
}

// clusterExtension makes the ClusterExtension.
func clusterExtension(name, sa, version string, opts InstallOptions) any {
	var spec extensionSpec
	spec.Namespace = opts.Namespace
	spec.ServiceAccount = map[string]string{"name": sa}
	spec.Source.SourceType = "Catalog"
	spec.Source.Catalog.PackageName = opts.Package
	spec.Source.Catalog.Version = version
	spec.Source.Catalog.Channels = opts.Channels
	if opts.WatchNamespace != "" {
		spec.Config = &extensionConfig{ConfigType: "Inline", Inline: map[string]string{"watchNamespace": opts.WatchNamespace}}
	}
	return struct {
		typeMeta
		Metadata objectMeta    `json:"metadata"`
		Spec     extensionSpec `json:"spec"`
	}{typeMeta{"olm.operatorframework.io/v1", "ClusterExtension"}, objectMeta{Name: name}, spec}
}

// NotesText formats notes as YAML comment lines, for the head of a
// stream.
func NotesText(notes []string) string {
	var b strings.Builder
	for _, n := range notes {
		b.WriteString("# " + n + "\n")
	}
	return b.String()
}
