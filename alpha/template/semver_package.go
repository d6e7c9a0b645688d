package template

import (
	"encoding/base64"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/registryv1"
)

// describePackage copies the description and the first icon of bundle b's
// ClusterServiceVersion (b heads the default channel) to the package, as
// upstream does, migrated or not. An icon whose data is not standard
// base64 is left out.
func describePackage(p *declcfg.Package, b *Bundle) {
	data := b.csv()
	if data == nil {
		return
	}
	csv, err := registryv1.ParseCSV(data)
	if err != nil {
		return
	}
	p.Description = csv.Spec.Description
	if len(csv.Spec.Icon) > 0 {
		icon := csv.Spec.Icon[0]
		if data, err := base64.StdEncoding.DecodeString(icon.Data); err == nil {
			p.Icon = &declcfg.Icon{Data: data, MediaType: icon.MediaType}
		}
	}
}
