package lint

import (
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/olmv1"
)

// olmv1-unsupported: OLM v1 cannot install the bundle. The verdict is
// package olmv1's (operator-controller's validators and resolver checks);
// this file only turns its reasons into findings.
const ruleOLMv1 = "olmv1-unsupported"

func olmv1Bundle(c *bundleCheck) []finding.Finding {
	var ob *olmv1.Bundle
	var err error
	if c.b.files != nil {
		ob, err = olmv1.BundleFromFiles(c.b.files, c.b.dir)
	} else {
		ob, err = olmv1.BundleFromDeclcfg(c.b.decl)
	}
	return olmv1Findings(c.b, "", ob, err, olmv1.CheckOptions{NoWebhooks: c.noWebhooks})
}

// olmv1Package checks the catalog's bundles that carry their manifests or
// CSV metadata. Bundles with a directory in the operator directory are
// left to the bundle check, which points into their manifests.
func olmv1Package(c *packageCheck) []finding.Finding {
	opts := olmv1.CheckOptions{NoWebhooks: c.noWebhooks}
	var out []finding.Finding
	for _, name := range c.pkg.BundleNames() {
		if c.cat.dirs[name] != nil {
			continue
		}
		mb := c.pkg.Bundles[name]
		if mb.Decl == nil || !carriesManifests(mb.Decl.Properties) {
			continue // only its image knows: render it, or lint the image
		}
		ob, err := olmv1.BundleFromDeclcfg(mb.Decl)
		b := &bundle{name: name, pkg: c.pkg.Name, decl: mb.Decl}
		out = append(out, olmv1Findings(b, firstChannel(c, name), ob, err, opts)...)
	}
	return out
}

// carriesManifests reports whether a catalog bundle has
// olm.bundle.object or olm.csv.metadata properties.
func carriesManifests(props []declcfg.Property) bool {
	for _, p := range props {
		if p.Type == declcfg.PropertyBundleObject || p.Type == declcfg.PropertyCSVMetadata {
			return true
		}
	}
	return false
}

// olmv1Findings turns the verdict on one bundle into findings; a bundle
// OLM v1 cannot read is one finding too.
func olmv1Findings(b *bundle, channel string, ob *olmv1.Bundle, err error, opts olmv1.CheckOptions) []finding.Finding {
	if err != nil {
		file, line := b.position()
		f := bundleFinding(ruleOLMv1, finding.Warning, b, file, line, "OLM v1 cannot read the bundle: %v", err)
		f.Channel = channel
		return []finding.Finding{f}
	}
	var out []finding.Finding
	for _, r := range olmv1.Unsupported(ob, opts) {
		file, line := r.File, r.Line
		if file == "" || b.decl != nil && file == b.decl.Pos.File {
			file, line = b.position() // not a property's line: the bundle's name
		}
		f := bundleFinding(ruleOLMv1, finding.Warning, b, file, line, "%s (%s)", r.Message, r.Code)
		f.Channel = channel
		out = append(out, f)
	}
	return out
}

// position is where a finding about the whole bundle points: its CSV, or
// its olm.bundle in the catalog.
func (b *bundle) position() (string, int) {
	switch {
	case b.csv != nil && !b.csv.inCatalog:
		return b.csv.file, b.csv.line
	case b.decl != nil:
		return b.catalogPos()
	}
	return b.dir, 0
}

// firstChannel names the first channel (by name) that lists the bundle,
// "" when none does.
func firstChannel(c *packageCheck, name string) string {
	for _, ch := range c.pkg.ChannelNames() {
		if c.pkg.Channels[ch].Entry(name) != nil {
			return ch
		}
	}
	return ""
}
