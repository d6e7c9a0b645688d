package osdk

import (
	"regexp"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// csvMarks are the words the validators name a CSV field with, and the
// field's path: the first mark a message holds places it.
var csvMarks = []struct {
	mark string
	path []string
}{
	{"csv.Spec.minKubeVersion", []string{"spec", "minKubeVersion"}},
	{"csv.Spec.MinKubeVersion", []string{"spec", "minKubeVersion"}},
	{"csv.Spec.Icon", []string{"spec", "icon"}},
	{"csv.Spec.Links", []string{"spec", "links"}},
	{"csv.Spec.Maintainers", []string{"spec", "maintainers"}},
	{"csv.Spec.Provider", []string{"spec", "provider"}},
	{"csv.Spec.Version", []string{"spec", "version"}},
	{"csv.Metadata.Annotations.Capabilities", []string{"metadata", "annotations", "capabilities"}},
	{`csv.Metadata.Annotations["categories"]`, []string{"metadata", "annotations", "categories"}},
	{"csv.metadata.Name", []string{"metadata", "name"}},
	{"metadata.name ", []string{"metadata", "name"}},
	{"spec.replaces ", []string{"spec", "replaces"}},
	{"olm.properties annotation", []string{"metadata", "annotations", "olm.properties"}},
	{"install modes", []string{"spec", "installModes"}},
	{"InstallModeType", []string{"spec", "installModes"}},
	{"deployment to install", []string{"spec", "install"}},
	{"permissions to create CRD", []string{"spec", "install", "spec"}},
	{"relatedImages[", []string{"spec", "relatedImages"}},
	{"CRD ", []string{"spec", "customresourcedefinitions"}},
}

// The messages that name an item of a list.
var (
	linkURL        = regexp.MustCompile(`csv\.Spec\.Links url (.*) is invalid`)
	maintainerMail = regexp.MustCompile(`csv\.Spec\.Maintainers email (.*) is invalid`)
	relatedImage   = regexp.MustCompile(`relatedImages\[(\d+)\]`)
	crdDescription = regexp.MustCompile(`(owned|required) CRD "([^"]*)" has an empty description`)
	ownedCRD       = regexp.MustCompile(`owned CRD "[^"]*, Kind=([^"]*)" not found`)
	container      = regexp.MustCompile(`resource requests for the container: \((.*)\)\. It is`)
	annotationCase = regexp.MustCompile(`provided annotation (\S+) uses wrong case`)
)

// csvField is the node of the CSV tree a message names (goField, the
// Go path of a missing field, when the validator gives one); nil for
// the CSV itself.
func csvField(csv *value.Value, msg, goField string) *value.Value {
	if n := csvItem(csv, msg); n != nil {
		return n
	}
	if strings.Contains(msg, "example") {
		if n := csv.At("metadata", "annotations", "olm.examples"); n != nil && csv.At("metadata", "annotations", "alm-examples") == nil {
			return n
		}
		return deepest(csv, []string{"metadata", "annotations", "alm-examples"})
	}
	if goField != "" && strings.Contains(msg, "required field missing") {
		return goPath(csv, goField)
	}
	for _, m := range csvMarks {
		if strings.Contains(msg, m.mark) {
			return deepest(csv, m.path)
		}
	}
	return nil
}

// csvItem is the item of a CSV list that a message names: a link, a
// maintainer, a related image, a CRD description, a container or an
// annotation.
func csvItem(csv *value.Value, msg string) *value.Value {
	if m := linkURL.FindStringSubmatch(msg); m != nil {
		return find(csv.At("spec", "links"), "url", m[1])
	}
	if m := maintainerMail.FindStringSubmatch(msg); m != nil {
		return find(csv.At("spec", "maintainers"), "email", m[1])
	}
	if m := relatedImage.FindStringSubmatch(msg); m != nil {
		return csv.At("spec", "relatedImages", m[1])
	}
	if m := crdDescription.FindStringSubmatch(msg); m != nil {
		return find(csv.At("spec", "customresourcedefinitions", m[1]), "name", m[2])
	}
	if m := ownedCRD.FindStringSubmatch(msg); m != nil {
		return find(csv.At("spec", "customresourcedefinitions", "owned"), "kind", m[1])
	}
	if m := container.FindStringSubmatch(msg); m != nil {
		deployments := csv.At("spec", "install", "spec", "deployments")
		for i := range items(deployments) {
			if c := find(deployments.Items[i].At("spec", "template", "spec", "containers"), "name", m[1]); c != nil {
				return c
			}
		}
	}
	if m := annotationCase.FindStringSubmatch(msg); m != nil {
		return csv.At("metadata", "annotations", m[1])
	}
	return nil
}
