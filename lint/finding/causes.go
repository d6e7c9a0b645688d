package finding

import (
	"strconv"
	"strings"
)

// The causes rules name (Finding.Causes): one vocabulary, so that rules
// that find the same problem in their own words name it alike.

// CauseCSVField is the cause of a finding about a CSV field that is
// missing or invalid, by its dotted path (spec.displayName,
// metadata.annotations.categories): an annotation is its own field, and
// a field below spec's members is its member's (spec.provider.name is
// spec.provider), as the validators name them.
func CauseCSVField(path string) string {
	keys := strings.Split(path, ".")
	n := 2
	if len(keys) > 2 && keys[0] == "metadata" && keys[1] == "annotations" {
		n = 3
	}
	return "csv-field:" + strings.Join(keys[:min(n, len(keys))], ".")
}

// CauseCRDVersions is the cause of a finding about the versions of the
// CRD named name (plural.group): the CSV owns a version the CRD does not
// have, the CRD has one the CSV does not own, an upgrade removes the
// version objects are stored in. A version renamed in the CRD alone is
// all of these.
func CauseCRDVersions(name string) string { return "crd-versions:" + name }

// CauseAPIRemoved is the cause of a finding about an object whose API
// version a target Kubernetes release no longer serves, by its kind and
// name.
func CauseAPIRemoved(kind, name string) string { return "api-removed:" + kind + "/" + name }

// CauseReleaseConfig is the cause of a finding about a bundle's
// release-config.yaml at a line (0: the file as a whole, which cannot be
// read): the pipeline's schema, its check against ci.yaml and release's
// own checks say what is wrong there each in their words.
func CauseReleaseConfig(file string, line int) string {
	return "release-config:" + file + "\x00" + strconv.Itoa(line)
}

// CauseSaid is the cause of what one tool printed about a place (a
// validator's output that two suites print alike): the same words at the
// same place are one problem.
func CauseSaid(tool, file string, line int, message string) string {
	return "said:" + tool + "\x00" + file + "\x00" + strconv.Itoa(line) + "\x00" + message
}
