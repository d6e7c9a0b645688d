package pipeline

import (
	"encoding/base64"
	"regexp"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/finding"
)

// check_required_fields: the fields OperatorHub needs of a CSV, each
// with a pattern or a validator; a missing or invalid field the pipeline
// calls fatal is an error, another a warning.

// RuleRequiredFields is the rule of check_required_fields.
const RuleRequiredFields = "required-fields"

// requiredField is one field: its dotted path, how its value is checked
// (a pattern matched from the start of its text, as Python's re.match
// does, or a validator of the value) and whether a problem fails.
type requiredField struct {
	path  string
	re    *regexp.Regexp
	valid func(*value.Value) bool
	fatal bool
}

// requiredFields are the pipeline's, in its order (compiled once, never
// changed).
var requiredFields = []requiredField{
	{path: "metadata.annotations.capabilities", valid: validCapabilities},
	{path: "metadata.annotations.categories", valid: validCategories},
	{path: "metadata.annotations.containerImage", re: re(`([^/]+/){1,}[^/:]+:.+`)},
	{path: "metadata.annotations.createdAt", valid: validTimestamp},
	{path: "metadata.annotations.repository", re: re(`https?://.+`)},
	{path: "metadata.annotations.support", re: re(`(?s).{3,}`)},
	{path: "metadata.annotations.description", re: re(`(?s).{10,}`)},
	{path: "spec.displayName", re: re(`.{3,50}`), fatal: true},
	{path: "spec.description", re: re(`(?s).{20,}`), fatal: true},
	{path: "spec.icon", valid: validIcon, fatal: true},
	{path: "spec.version", valid: validSemver, fatal: true},
	{path: "spec.maintainers", valid: validMaintainers, fatal: true},
	{path: "spec.provider.name", re: re(`.{3,}`), fatal: true},
	{path: "spec.links", valid: validLinks, fatal: true},
	{path: "spec.keywords", valid: validStrings},
}

// re compiles a pattern matched from the start of the text.
func re(p string) *regexp.Regexp { return regexp.MustCompile(`^(?:` + p + `)`) }

// RequiredFieldProblems lists the dotted paths of the CSV fields that
// check_required_fields finds missing or invalid (lint's csv-fields
// leaves those fields to it).
func RequiredFieldProblems(csv *value.Value) []string {
	var out []string
	for _, f := range requiredFields {
		if _, _, bad := f.check(csv); bad {
			out = append(out, f.path)
		}
	}
	return out
}

// check looks the field up: its node (or the nearest one above it, to
// place a finding at), whether it is there, and whether it is wrong.
func (f requiredField) check(csv *value.Value) (at *value.Value, present, bad bool) {
	at = csv
	cur := csv
	for _, k := range strings.Split(f.path, ".") {
		next := cur.At(k)
		if next == nil {
			return at, false, true
		}
		cur = next
		at = next
	}
	if cur.Kind == value.Null {
		return at, false, true
	}
	if f.re != nil {
		return at, true, !f.re.MatchString(pyStr(cur))
	}
	return at, true, !f.valid(cur)
}

// requiredFieldsCheck is check_required_fields for a bundle directory.
func requiredFieldsCheck(_ *Operator, b *Bundle) []finding.Finding {
	var out []finding.Finding
	for _, f := range requiredFields {
		at, present, bad := f.check(b.CSV)
		if !bad {
			continue
		}
		sev := finding.Warning
		if f.fatal {
			sev = finding.Error
		}
		msg := "CSV does not define " + f.path
		if present {
			msg = "CSV contains an invalid value for " + f.path
		}
		rf := atCSV(RuleRequiredFields, sev, b, at, "%s", msg)
		rf.Causes = []string{finding.CauseCSVField(f.path)}
		out = append(out, rf)
	}
	return out
}

// The capability levels and categories the pipeline accepts.
var (
	pipelineCapabilities = []string{"Basic Install", "Seamless Upgrades", "Full Lifecycle", "Deep Insights", "Auto Pilot"}
	pipelineCategories   = []string{
		"AI/Machine Learning", "Application Runtime", "Big Data", "Cloud Provider", "Developer Tools", "Database",
		"Drivers and plugins", "Integration & Delivery", "Logging & Tracing", "Modernization & Migration",
		"Monitoring", "Networking", "OpenShift Optional", "Security", "Storage", "Streaming & Messaging",
	}
	pipelineMediaTypes = []string{"image/png", "image/jpeg", "image/gif", "image/svg+xml"}
)

// CapabilityLevels are the capability levels the pipeline (and
// OperatorHub) accept.
func CapabilityLevels() []string { return slices.Clone(pipelineCapabilities) }

// Categories are the operator categories the pipeline (and OperatorHub)
// accept.
func Categories() []string { return slices.Clone(pipelineCategories) }

// IconMediaTypes are the media types of an icon the pipeline accepts.
func IconMediaTypes() []string { return slices.Clone(pipelineMediaTypes) }

func validCapabilities(v *value.Value) bool {
	return v.Kind == value.String && slices.Contains(pipelineCapabilities, v.Str)
}

// validCategories takes a comma-separated list of categories.
func validCategories(v *value.Value) bool {
	for _, c := range strings.Split(pyStr(v), ",") {
		if !slices.Contains(pipelineCategories, strings.Trim(c, pyWhitespace)) {
			return false
		}
	}
	return true
}

// pyWhitespace is what Python's str.strip() and string.whitespace take
// off (for ASCII text).
const pyWhitespace = " \t\n\r\v\f"

// validSemver takes a strict semantic version (no leading v).
func validSemver(v *value.Value) bool {
	if v.Kind != value.String {
		return false
	}
	return strictSemver.MatchString(v.Str)
}

// strictSemver is semver.org's pattern, which python-semver parses with.
var strictSemver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// listOfObjects reports whether v is a list of objects that each have
// the string members named.
func listOfObjects(v *value.Value, members ...string) bool {
	if v.Kind != value.Array {
		return false
	}
	for i := range v.Items {
		it := &v.Items[i]
		if it.Kind != value.Object {
			return false
		}
		for _, m := range members {
			if s := it.At(m); s == nil || s.Kind != value.String {
				return false
			}
		}
	}
	return true
}

// validIcon takes one or more icons, each base64 data (white space
// aside, at least four characters) of a supported media type.
func validIcon(v *value.Value) bool {
	if !listOfObjects(v, "base64data", "mediatype") || len(v.Items) == 0 {
		return false
	}
	for i := range v.Items {
		data := strings.Map(func(r rune) rune {
			if strings.ContainsRune(pyWhitespace, r) {
				return -1
			}
			return r
		}, v.Items[i].StringAt("base64data"))
		if len(data) < 4 || !base64Text.MatchString(data) {
			return false
		}
		if _, err := base64.StdEncoding.DecodeString(data); err != nil {
			return false
		}
		if !slices.Contains(pipelineMediaTypes, v.Items[i].StringAt("mediatype")) {
			return false
		}
	}
	return true
}

// base64Text is what Python's b64decode(validate=True) lets through to
// decoding.
var base64Text = regexp.MustCompile(`^[A-Za-z0-9+/]*={0,2}$`)

func validMaintainers(v *value.Value) bool {
	return listOfObjects(v, "name", "email") && len(v.Items) > 0
}

func validLinks(v *value.Value) bool {
	return listOfObjects(v, "name", "url") && len(v.Items) > 0
}

// validStrings takes a non-empty list of strings.
func validStrings(v *value.Value) bool {
	if v.Kind != value.Array || len(v.Items) == 0 {
		return false
	}
	for i := range v.Items {
		if v.Items[i].Kind != value.String {
			return false
		}
	}
	return true
}
