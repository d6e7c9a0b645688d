package catalogrepo

import (
	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
)

// ReleaseFacts are what a release-config.yaml of the package is checked
// against (repoconfig's ReleaseConfig.Check, which a release and lint
// both ask): its mapped templates, the channels of each, its bundles.
func (p *Package) ReleaseFacts() repoconfig.ReleaseFacts {
	f := repoconfig.ReleaseFacts{Operator: p.Dir, Package: p.FBCPackage(), CIFile: p.CI.File, Bundles: p.BundleNames()}
	for _, t := range p.Templates {
		tf := repoconfig.TemplateFacts{Name: t.TemplateFile, Type: t.Type}
		if t.Data != nil && t.Kind() == template.Basic {
			if n, err := template.ReadNames(t.Kind(), t.Data); err == nil {
				tf.Channels = n.Channels
			}
		}
		f.Templates = append(f.Templates, tf)
	}
	return f
}
