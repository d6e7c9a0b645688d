// Package csvcheck checks a ClusterServiceVersion's fields as
// operator-framework/api's operatorhub and good-practices validators (as
// operator-sdk bundle validate runs them) and the community pipeline's
// required-fields check ask for them: alm-examples, capabilities,
// categories, icon, maintainers, links, provider, description, version,
// resource requests and CRD descriptions. Each check is a function of the
// CSV; lint places and reports what they find.
package csvcheck

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/pipeline"
)

// The capability levels, categories and icon media types OperatorHub and
// the community pipeline accept (the pipeline's lists).
var (
	capabilities   = pipeline.CapabilityLevels()
	categories     = pipeline.Categories()
	iconMediaTypes = pipeline.IconMediaTypes()
)

// Issue is one problem with a CSV, at a node (nil: the CSV); Field is the
// field of the pipeline's check_required_fields it is about, if any.
type Issue struct {
	Node  *value.Value
	Msg   string
	Field string
}

// csv is the CSV checked: its document, and whether it is partial (made
// from a catalog's olm.csv.metadata, which has no version, install
// strategy or icon).
type csv struct {
	root    *value.Value
	partial bool
}

func (o csv) get(keys ...string) *value.Value { return o.root.At(keys...) }

// checks are the checks, each of the whole CSV.
var checks = []func(o csv) []Issue{
	checkExamples, checkCapabilities, checkCategories, checkIcon, checkMaintainers,
	checkLinks, checkBasics, checkResourceRequests, checkCRDDescriptions,
}

// Check checks a CSV's document; partial says it was made from a
// catalog's olm.csv.metadata.
func Check(root *value.Value, partial bool) []Issue {
	var out []Issue
	for _, check := range checks {
		out = append(out, check(csv{root, partial})...)
	}
	return out
}

// gvk names an API for messages.
func gvk(group, version, kind string) string { return group + "/" + version + " " + kind }

// ownedAPIs lists the APIs the CSV owns: its owned CRDs and API services.
func ownedAPIs(o csv) []string {
	var out []string
	if owned := o.get("spec", "customresourcedefinitions", "owned"); owned != nil {
		for i := range owned.Items {
			it := &owned.Items[i]
			_, group, _ := strings.Cut(it.StringAt("name"), ".")
			out = append(out, gvk(group, it.StringAt("version"), it.StringAt("kind")))
		}
	}
	if owned := o.get("spec", "apiservicedefinitions", "owned"); owned != nil {
		for i := range owned.Items {
			it := &owned.Items[i]
			out = append(out, gvk(it.StringAt("group"), it.StringAt("version"), it.StringAt("kind")))
		}
	}
	return out
}

// checkExamples checks alm-examples: JSON, a list of objects, each of an
// API the CSV owns; and an example for each owned API.
func checkExamples(o csv) []Issue {
	owned := ownedAPIs(o)
	ann := o.get("metadata", "annotations", "alm-examples")
	if ann == nil {
		if len(owned) > 0 {
			return []Issue{{o.get("metadata"), "no alm-examples annotation: the console offers no example object for the APIs the CSV owns", ""}}
		}
		return nil
	}
	var examples []struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal([]byte(ann.Str), &examples); err != nil {
		return []Issue{{ann, fmt.Sprintf("alm-examples is not a JSON list of objects: %v", err), ""}}
	}
	var out []Issue
	have := map[string]bool{}
	for _, ex := range examples {
		group, version, ok := strings.Cut(ex.APIVersion, "/")
		if !ok {
			group, version = "", ex.APIVersion
		}
		api := gvk(group, version, ex.Kind)
		have[api] = true
		if !slices.Contains(owned, api) {
			out = append(out, Issue{ann, fmt.Sprintf("alm-examples has an example of %s, which the CSV does not own (spec.customresourcedefinitions.owned)", api), ""})
		}
	}
	for _, api := range owned {
		if !have[api] {
			out = append(out, Issue{ann, fmt.Sprintf("alm-examples has no example of %s, which the CSV owns", api), ""})
		}
	}
	return out
}

func checkCapabilities(o csv) []Issue {
	v := o.get("metadata", "annotations", "capabilities")
	if v == nil || slices.Contains(capabilities, v.Str) {
		return nil
	}
	return []Issue{{v, fmt.Sprintf("capabilities %q is not a capability level: use one of %s", v.Str, strings.Join(capabilities, ", ")), "metadata.annotations.capabilities"}}
}

func checkCategories(o csv) []Issue {
	v := o.get("metadata", "annotations", "categories")
	if v == nil {
		return nil
	}
	var bad []string
	for _, c := range strings.Split(v.Str, ",") {
		if c = strings.TrimSpace(c); !slices.Contains(categories, c) {
			bad = append(bad, fmt.Sprintf("%q", c))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return []Issue{{v, fmt.Sprintf("categories %s not among OperatorHub's categories (%s)", strings.Join(bad, ", "), strings.Join(categories, ", ")), "metadata.annotations.categories"}}
}

func checkIcon(o csv) []Issue {
	if o.partial {
		return nil // the catalog keeps the icon in olm.package, which validate checks
	}
	icons := o.get("spec", "icon")
	switch {
	case icons == nil || icons.Kind != value.Array || len(icons.Items) == 0:
		return []Issue{{o.get("spec"), "no spec.icon: the console shows a placeholder", "spec.icon"}}
	case len(icons.Items) > 1:
		return []Issue{{icons, fmt.Sprintf("spec.icon has %d icons; OperatorHub takes exactly one", len(icons.Items)), "spec.icon"}}
	}
	icon := &icons.Items[0]
	mt, data := icon.StringAt("mediatype"), icon.StringAt("base64data")
	switch {
	case mt == "" || data == "":
		return []Issue{{icon, "spec.icon needs both base64data and mediatype", "spec.icon"}}
	case !slices.Contains(iconMediaTypes, mt):
		return []Issue{{icon, fmt.Sprintf("spec.icon mediatype %q is not one of %s", mt, strings.Join(iconMediaTypes, ", ")), "spec.icon"}}
	}
	if _, err := base64.StdEncoding.DecodeString(strings.TrimSpace(data)); err != nil {
		return []Issue{{icon, fmt.Sprintf("spec.icon base64data is not base64: %v", err), "spec.icon"}}
	}
	return nil
}

func checkMaintainers(o csv) []Issue {
	ms := o.get("spec", "maintainers")
	if ms == nil || ms.Kind != value.Array || len(ms.Items) == 0 {
		return []Issue{{o.get("spec"), "no spec.maintainers: give a name and an email for someone to contact", "spec.maintainers"}}
	}
	var out []Issue
	for i := range ms.Items {
		m := &ms.Items[i]
		name, email := m.StringAt("name"), m.StringAt("email")
		if name == "" || email == "" {
			out = append(out, Issue{m, "spec.maintainers entries need both name and email", "spec.maintainers"})
		}
		if _, err := mail.ParseAddress(email); email != "" && err != nil {
			out = append(out, Issue{m, fmt.Sprintf("spec.maintainers email %q is not an email address", email), ""})
		}
	}
	return out
}

func checkLinks(o csv) []Issue {
	ls := o.get("spec", "links")
	if ls == nil || ls.Kind != value.Array {
		return nil
	}
	var out []Issue
	for i := range ls.Items {
		l := &ls.Items[i]
		name, u := l.StringAt("name"), l.StringAt("url")
		if name == "" || u == "" {
			out = append(out, Issue{l, "spec.links entries need both name and url", "spec.links"})
		}
		if _, err := url.ParseRequestURI(u); u != "" && err != nil {
			out = append(out, Issue{l, fmt.Sprintf("spec.links url %q is not a URL", u), ""})
		}
	}
	return out
}

// checkBasics checks the fields every listing needs: provider, display
// name, description, version, and a minKubeVersion that parses.
func checkBasics(o csv) []Issue {
	var out []Issue
	spec := o.get("spec")
	if o.root.StringAt("spec", "provider", "name") == "" {
		out = append(out, Issue{spec, "no spec.provider.name: the console lists the operator without a provider", "spec.provider.name"})
	}
	if strings.TrimSpace(o.root.StringAt("spec", "displayName")) == "" {
		out = append(out, Issue{spec, "no spec.displayName", "spec.displayName"})
	}
	if strings.TrimSpace(o.root.StringAt("spec", "description")) == "" {
		out = append(out, Issue{spec, "no spec.description: the console shows an empty page for the operator", "spec.description"})
	}
	if !o.partial && o.root.StringAt("spec", "version") == "" {
		out = append(out, Issue{spec, "no spec.version", "spec.version"})
	}
	if mk := o.get("spec", "minKubeVersion"); mk != nil && mk.Str != "" {
		if _, err := semver.ParseTolerant(mk.Str); err != nil {
			out = append(out, Issue{mk, fmt.Sprintf("spec.minKubeVersion %q is not a version such as 1.25.0", mk.Str), ""})
		}
	}
	return out
}

// checkResourceRequests asks each container of the install strategy's
// deployments to request CPU and memory (good practice: some clusters'
// quotas refuse pods that do not).
func checkResourceRequests(o csv) []Issue {
	deps := o.get("spec", "install", "spec", "deployments")
	if deps == nil || deps.Kind != value.Array {
		return nil
	}
	var out []Issue
	for i := range deps.Items {
		cs := deps.Items[i].At("spec", "template", "spec", "containers")
		if cs == nil || cs.Kind != value.Array {
			continue
		}
		for j := range cs.Items {
			c := &cs.Items[j]
			req := c.At("resources", "requests")
			if req.At("cpu") == nil || req.At("memory") == nil {
				out = append(out, Issue{c, fmt.Sprintf("container %q of deployment %q requests no CPU or no memory (resources.requests): some clusters' quotas refuse such pods", c.StringAt("name"), deps.Items[i].StringAt("name")), ""})
			}
		}
	}
	return out
}

// checkCRDDescriptions asks each owned and required CRD for a description.
func checkCRDDescriptions(o csv) []Issue {
	var out []Issue
	for _, rel := range []string{"owned", "required"} {
		list := o.get("spec", "customresourcedefinitions", rel)
		if list == nil || list.Kind != value.Array {
			continue
		}
		for i := range list.Items {
			it := &list.Items[i]
			if strings.TrimSpace(it.StringAt("description")) == "" {
				out = append(out, Issue{it, fmt.Sprintf("%s CRD %q has no description", rel, it.StringAt("name")), ""})
			}
		}
	}
	return out
}
