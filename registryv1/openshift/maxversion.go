package openshift

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// PropertyMaxVersion is the CSV property (in its olm.properties
// annotation) that caps the OpenShift versions of a bundle: the
// pipelines leave the bundle out of catalogs of later versions, and OLM
// blocks cluster upgrades past it.
const PropertyMaxVersion = "olm.maxOpenShiftVersion"

// MaxVersion is a CSV's olm.maxOpenShiftVersion.
type MaxVersion struct {
	Version Version
	// Text is the value as written, its quotes trimmed.
	Text string
	// Number is set when the value is a JSON number, not a string.
	Number bool
}

// ParseMaxVersion finds olm.maxOpenShiftVersion in a CSV's
// olm.properties annotation (a JSON list of {type, value}); nil when
// there is none. OLM reads the value's text, quotes trimmed, as a
// version ("4.12", "4.12.0", "v4.12"); it refuses a second one.
func ParseMaxVersion(olmProperties string) (*MaxVersion, error) {
	if strings.TrimSpace(olmProperties) == "" {
		return nil, nil
	}
	var props []struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(olmProperties), &props); err != nil {
		return nil, fmt.Errorf("the olm.properties annotation is not a JSON list of properties: %w", err)
	}
	var found *MaxVersion
	for _, p := range props {
		if p.Type != PropertyMaxVersion {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("olm.properties defines %s twice; OLM refuses that: keep one", PropertyMaxVersion)
		}
		text := strings.TrimSpace(string(p.Value))
		found = &MaxVersion{Text: strings.Trim(text, `"`), Number: !strings.HasPrefix(text, `"`)}
		s := strings.TrimPrefix(found.Text, "v")
		if parts := strings.Split(s, "."); len(parts) == 3 {
			s = parts[0] + "." + parts[1] // a patch version says nothing more
		}
		v, _, err := ParseVersion(s)
		if err != nil || v.Major != 4 {
			return nil, fmt.Errorf("%s %s is not an OpenShift version such as \"4.12\"", PropertyMaxVersion, text)
		}
		found.Version = v
	}
	return found, nil
}

// Misread is what the community pipeline reads a value written as a JSON
// number as, when that is not what is written: it reads the number, so
// 4.10 is 4.1. ok is false for a string, and for a number read as
// written.
func (m *MaxVersion) Misread() (read string, ok bool) {
	if !m.Number {
		return "", false
	}
	f, err := strconv.ParseFloat(m.Text, 64)
	if err != nil {
		return "", false
	}
	read = strconv.FormatFloat(f, 'f', -1, 64)
	return read, read != m.Text
}
