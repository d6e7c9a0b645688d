package config

import "fmt"

// Target is who installs the catalogs linted.
type Target string

// The targets. OLM v0 (classic OLM, which OpenShift 4.x runs and which
// installs catalogs/v4.x) is the default.
const (
	TargetOLMv0 Target = "olmv0"
	TargetOLMv1 Target = "olmv1"
)

// ParseTarget reads a target name.
func ParseTarget(s string) (Target, error) {
	t := Target(s)
	if err := t.Check(); err != nil || s == "" {
		return "", fmt.Errorf("unknown target %q: use olmv0 (classic OLM, OpenShift 4.x) or olmv1", s)
	}
	return t, nil
}

// Check accepts the targets and "" (OLM v0).
func (t Target) Check() error {
	switch t {
	case "", TargetOLMv0, TargetOLMv1:
		return nil
	}
	return fmt.Errorf("unknown target %q: use olmv0 (classic OLM, OpenShift 4.x) or olmv1", string(t))
}
