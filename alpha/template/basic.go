package template

import (
	"context"
	"fmt"
	"strings"

	"github.com/fbcat/opm/declcfg"
)

// expandBasic expands a basic template. Its entries are catalog objects,
// passed through as they are, except olm.bundle entries, which give only
// the bundle's image (a name is allowed and ignored): each is replaced by
// the bundle rendered from that image. As upstream, the result is not
// validated.
func expandBasic(ctx context.Context, src source, doc *document, br BundleRenderer) (*declcfg.DeclarativeConfig, error) {
	items, problems := entries(src, doc)
	list, _, _ := listMember(&doc.value, "entries")
	var refs []string
	for i, it := range items {
		if it.Bundle == nil {
			continue
		}
		b := it.Bundle
		var extra []string
		if b.Package != "" {
			extra = append(extra, "package")
		}
		if len(b.Properties) > 0 {
			extra = append(extra, "properties")
		}
		if len(b.RelatedImages) > 0 {
			extra = append(extra, "relatedImages")
		}
		entry := fmt.Sprintf("entries[%d]", i)
		switch {
		case b.Image == "":
			problems = append(problems, src.errorf(&list[i], entry, "olm.bundle entry has no image: a basic template's bundles are rendered from their bundle image"))
		case len(extra) > 0:
			problems = append(problems, src.errorf(&list[i], entry, "olm.bundle entry for image %q has %s: a basic template's bundle gives only its image, the rest is rendered from it", b.Image, strings.Join(extra, ", ")))
		default:
			refs = append(refs, b.Image)
		}
	}
	if len(problems) > 0 {
		return nil, problems.sorted()
	}

	rendered, failed := renderImages(ctx, br, refs)
	cfg := &declcfg.DeclarativeConfig{}
	for i, it := range items {
		if it.Bundle == nil {
			cfg.Add(it)
			continue
		}
		ref := it.Bundle.Image
		if err := failed[ref]; err != nil {
			problems = append(problems, src.wrap(&list[i], fmt.Sprintf("entries[%d]", i), err))
			continue
		}
		cfg.Bundles = append(cfg.Bundles, rendered[ref].Bundle)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return cfg, nil
}
