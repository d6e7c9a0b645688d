package template

import (
	"encoding/json"

	"github.com/fbcat/opm/declcfg"
)

// describePackage copies the description and the first icon of bundle b's
// ClusterServiceVersion (b heads the default channel) to the package, as
// upstream does, migrated or not. It reads the CSV as upstream does, the
// two members on their own: spec.description when it is a non-empty
// string, and the first of spec.icon when every icon reads (base64data
// decoded as encoding/json decodes bytes, so that a missing one is null;
// the members' names matched ignoring case). One that does not read is
// left out without the other.
func describePackage(p *declcfg.Package, b *Bundle) {
	data := b.csv()
	if data == nil {
		return
	}
	var csv struct {
		Spec json.RawMessage `json:"spec"`
	}
	if json.Unmarshal(data, &csv) != nil {
		return
	}
	var spec map[string]json.RawMessage
	if json.Unmarshal(csv.Spec, &spec) != nil {
		return
	}
	var desc string
	if raw, ok := spec["description"]; ok && json.Unmarshal(raw, &desc) == nil && desc != "" {
		p.Description = desc
	}
	var icons []struct {
		Data      []byte `json:"base64data"`
		MediaType string `json:"mediatype"`
	}
	if raw, ok := spec["icon"]; ok && json.Unmarshal(raw, &icons) == nil && len(icons) > 0 {
		p.Icon = &declcfg.Icon{Data: icons[0].Data, MediaType: icons[0].MediaType}
	}
}
