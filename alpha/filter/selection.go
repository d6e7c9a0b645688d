package filter

import (
	"os"

	"github.com/fbcat/opm/option"
)

// Selection says what to keep: an oc-mirror ImageSetConfiguration file
// (Config), or packages each given as NAME or NAME:CHANNEL (Packages);
// exactly one of them.
type Selection struct {
	Config   string
	Packages []string
}

// The fields of Selection, as errors name them.
const (
	optionConfig   option.Name = "alpha/filter.Selection.Config"
	optionPackages option.Name = "alpha/filter.Selection.Packages"
)

// Validate checks that the selection says what to keep one way, and the
// packages given.
func (s Selection) Validate() error {
	switch {
	case s.Config != "" && len(s.Packages) > 0:
		return option.Errorf(option.Conflict, "%s and %s cannot be combined", optionConfig, optionPackages)
	case s.Config != "":
		return nil
	case len(s.Packages) == 0:
		return option.Errorf(option.Missing, "say what to keep with %s or %s", option.With{Name: optionConfig, Value: "FILE"}, option.With{Name: optionPackages, Value: "NAME[:CHANNEL]"})
	}
	if _, err := FromPackageArgs(s.Packages); err != nil {
		return option.Errorf(option.Invalid, "%s: %w", optionPackages, err)
	}
	return nil
}

// Selector reads the selection: the configuration file's filter for each
// reference, or the packages' for all.
func (s Selection) Selector() (Selector, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Config == "" {
		f, err := FromPackageArgs(s.Packages)
		return func(string) (*Filter, error) { return &f, nil }, err
	}
	data, err := os.ReadFile(s.Config)
	if err != nil {
		return nil, err
	}
	cfg, err := ParseConfig(s.Config, data)
	if err != nil {
		return nil, err
	}
	return func(ref string) (*Filter, error) {
		cat, err := cfg.ForRef(ref)
		if err != nil {
			return nil, err
		}
		return &cat.Filter, nil
	}, nil
}
