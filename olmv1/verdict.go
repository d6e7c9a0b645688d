// The verdict: whether OLM v1 can install a bundle, and if not why.

package olmv1

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
)

// CheckOptions says which OLM v1 the verdict is for. The zero value is
// current upstream operator-controller with its default feature gates.
type CheckOptions struct {
	// NoWebhooks refuses bundles with webhook definitions: OpenShift
	// 4.18's level. Current operator-controller installs them, with
	// cert-manager providing the certificates (WebhookProviderCertManager,
	// on by default).
	NoWebhooks bool
	// SingleOwnNamespace accepts bundles without the AllNamespaces install
	// mode, installed for one watch namespace: operator-controller's
	// SingleOwnNamespaceInstallSupport feature gate (OpenShift's
	// NewOLMOwnSingleNamespace, a Technology Preview).
	SingleOwnNamespace bool
}

// Reason is one thing that stops OLM v1 from installing a bundle: a
// stable Code (see the Code constants), a Message saying what and how to
// fix it, and, where known, the File and Line that cause it.
type Reason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
}

func (r Reason) String() string {
	switch {
	case r.File == "":
		return r.Message
	case r.Line <= 0:
		return r.File + ": " + r.Message
	}
	return fmt.Sprintf("%s:%d: %s", r.File, r.Line, r.Message)
}

// The codes of Reasons. They are stable: tools may match on them.
const (
	CodeAllNamespaces     = "all-namespaces"     // no AllNamespaces install mode
	CodeInstallModes      = "install-modes"      // none of AllNamespaces, SingleNamespace, OwnNamespace
	CodeAPIServices       = "apiservices"        // owns API service definitions
	CodeWebhooks          = "webhooks"           // webhooks, where they are refused (NoWebhooks)
	CodeConversionWebhook = "conversion-webhook" // conversion webhook limits
	CodeWebhook           = "webhook"            // a webhook definition OLM v1 refuses
	CodeDeployment        = "deployment"         // a CSV deployment OLM v1 refuses
	CodeCRD               = "crd"                // duplicate or missing CRDs
	CodePackageName       = "package-name"       // no package name
	CodeUnsupportedObject = "unsupported-object" // a manifest of a kind OLM does not install
	CodeInvalidObject     = "invalid-object"     // a manifest the API server refuses
	CodeDependency        = "dependency"         // olm.gvk.required, olm.package.required, olm.constraint
	CodeUnreadable        = "unreadable"         // a CSV part that cannot be read
)

// Unsupported lists why OLM v1 cannot install the bundle (empty: it can),
// each reason with a stable code and, where known, the file and line that
// causes it. The reasons are sorted by file, line and code.
//
// The checks are operator-controller's: the refusals of its registry+v1
// manifest provider (API services, webhooks, install modes), its bundle
// validators, what makes its renderer fail, and its resolver's refusal of
// dependencies. For a bundle known only by its olm.csv.metadata property
// (HasManifests false), only what that property tells is checked.
func Unsupported(b *Bundle, opts CheckOptions) []Reason {
	c := &checker{b: b, opts: opts}
	c.installModes()
	c.apiServices()
	c.dependencies()
	if b.csv != nil {
		c.manifests()
	}
	slices.SortStableFunc(c.reasons, func(x, y Reason) int {
		return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Line, y.Line), cmp.Compare(x.Code, y.Code))
	})
	return c.reasons
}

// checker collects the reasons of one bundle.
type checker struct {
	b       *Bundle
	opts    CheckOptions
	reasons []Reason
}

func (c *checker) add(code, file string, line int, format string, args ...any) {
	c.reasons = append(c.reasons, Reason{Code: code, Message: fmt.Sprintf(format, args...), File: file, Line: line})
}

// supportedModes is the set of install modes the bundle supports.
func (b *Bundle) supportedModes() map[string]bool {
	modes := map[string]bool{}
	for _, m := range b.meta.InstallModes {
		if m.Supported {
			modes[m.Type] = true
		}
	}
	return modes
}

// sortedModes lists the supported install modes, sorted.
func sortedModes(modes map[string]bool) string {
	var out []string
	for m := range modes {
		out = append(out, m)
	}
	slices.Sort(out)
	return "[" + strings.Join(out, " ") + "]"
}

// installModes checks the install modes as operator-controller's manifest
// provider does.
func (c *checker) installModes() {
	modes := c.b.supportedModes()
	file, line := c.b.csvAt("spec", "installModes")
	if !modes["AllNamespaces"] && !c.opts.SingleOwnNamespace {
		if modes["SingleNamespace"] || modes["OwnNamespace"] {
			c.add(CodeAllNamespaces, file, line, "unsupported bundle: bundle does not support AllNamespaces install mode (it supports %s): OLM v1 installs it only with the SingleOwnNamespaceInstallSupport feature gate (OpenShift: NewOLMOwnSingleNamespace, Technology Preview) and a watch namespace in the ClusterExtension's spec.config.inline.watchNamespace; or support AllNamespaces in spec.installModes", sortedModes(modes))
			return
		}
	}
	if !modes["AllNamespaces"] && !modes["SingleNamespace"] && !modes["OwnNamespace"] {
		c.add(CodeInstallModes, file, line, "unsupported bundle: bundle must support at least one of [AllNamespaces SingleNamespace OwnNamespace] install modes (it supports %s): set supported: true for AllNamespaces in spec.installModes", sortedModes(modes))
	}
}

// apiServices refuses owned API service definitions.
func (c *checker) apiServices() {
	owned := c.b.meta.APIServiceDefinitions.Owned
	if len(owned) == 0 {
		return
	}
	var names []string
	for _, d := range owned {
		names = append(names, d.Name)
	}
	file, line := c.b.csvAt("spec", "apiservicedefinitions", "owned")
	c.add(CodeAPIServices, file, line, "unsupported bundle: apiServiceDefintions are not supported (the CSV owns %s): OLM v1 installs no aggregated API servers; serve these APIs with CRDs or install the operator with OLM v0", strings.Join(names, ", "))
}

// dependencies refuses the properties that declare dependencies, as
// operator-controller's resolver does.
func (c *checker) dependencies() {
	for i, p := range c.b.properties {
		switch p.Type {
		case declcfg.PropertyGVKRequired, declcfg.PropertyPackageRequired, declcfg.PropertyConstraint:
		default:
			continue
		}
		file, line := c.b.propAt(i)
		fix := "OLM v1 resolves no dependencies: install what the bundle needs first, and drop the dependency from " + c.b.declaredIn(file)
		if p.Type == declcfg.PropertyGVKRequired && line == 0 && c.b.csv != nil && len(c.b.meta.CRDDescriptions.Required) > 0 {
			file, line = c.b.csvAt("spec", "customresourcedefinitions", "required")
			fix = "OLM v1 resolves no dependencies: install the operator providing the API first, and drop it from the CSV's spec.customresourcedefinitions.required"
		}
		c.add(CodeDependency, file, line, "bundle %q has a dependency declared via property %q which is currently not supported (%s): %s", c.b.Name, p.Type, p.Value, fix)
	}
}
