package declcfg

import "fmt"

// Format is an output format.
type Format string

// The output formats.
const (
	FormatJSON Format = "json"
	FormatYAML Format = "yaml"
)

// ParseFormat checks a user-given format name.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case FormatJSON, FormatYAML:
		return Format(s), nil
	}
	return "", fmt.Errorf("invalid output format %q, expected json or yaml", s)
}

// Ext is the file extension for the format.
func (f Format) Ext() string { return "." + string(f) }
