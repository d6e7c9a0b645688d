package template

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/validate"
)

// checkCatalog validates cfg as opm validate does and returns its
// problems, each at the template line of the object it concerns (or, for
// a substitution, at the substitution), prefixed with what.
func checkCatalog(ctx context.Context, src source, cfg *declcfg.DeclarativeConfig, at *substitution, what string) Errors {
	files := map[string][]byte{}
	var lines []int
	add := func(o declcfg.Encodable, pos declcfg.Pos) {
		files[fmt.Sprintf("%06d.json", len(lines))] = o.AppendJSON(nil)
		lines = append(lines, pos.Line)
	}
	for i := range cfg.Packages {
		add(&cfg.Packages[i], cfg.Packages[i].Pos)
	}
	for i := range cfg.Channels {
		add(&cfg.Channels[i], cfg.Channels[i].Pos)
	}
	for i := range cfg.Bundles {
		add(&cfg.Bundles[i], cfg.Bundles[i].Pos)
	}
	for i := range cfg.Deprecations {
		add(&cfg.Deprecations[i], cfg.Deprecations[i].Pos)
	}
	for i := range cfg.Others {
		add(&cfg.Others[i], cfg.Others[i].Pos)
	}
	fsys, err := declcfg.NewMemFS(files)
	if err != nil {
		return Errors{src.wrap(nil, "", err)}
	}
	res, err := validate.Validate(ctx, fsys, validate.Options{Concurrency: 1})
	if err != nil {
		return Errors{src.wrap(nil, "", err)}
	}
	var out Errors
	for _, p := range res.Problems {
		msg := p.Message
		if s := p.Subject(); s != "" {
			msg = s + ": " + msg
		}
		line, entry := 0, ""
		if i, err := strconv.Atoi(strings.TrimSuffix(p.File, ".json")); err == nil && i < len(lines) {
			line = lines[i]
		}
		if at != nil {
			line, entry = int(at.node.Line), at.path
		}
		out = append(out, problemAt(src.file, line, src.kind, entry, fmt.Errorf("%s: %s", what, msg)))
	}
	return out.sorted()
}

// substitutesForAnnotation marks, in a ClusterServiceVersion, the bundle
// it substitutes for (the legacy way of making substitutes).
const substitutesForAnnotation = "olm.substitutesFor"

// bundleVersion is a bundle's version as upstream orders substitutes: the
// version and release of its olm.package property, where a bundle without
// a release whose ClusterServiceVersion (csv, else the one among its
// objects or its olm.csv.metadata) has an olm.substitutesFor annotation
// takes the version's build metadata as its release.
func bundleVersion(b *declcfg.Bundle, csv []byte) (model.Version, error) {
	v, err := (&model.Bundle{Name: b.Name, Decl: b}).Version()
	if err != nil || v.Release != "" || len(v.Build) == 0 {
		return v, err
	}
	if _, ok := annotations(b, csv)[substitutesForAnnotation]; ok {
		v.Release = strings.Join(v.Build, ".")
	}
	return v, nil
}

// annotations reads the annotations of a bundle's ClusterServiceVersion.
func annotations(b *declcfg.Bundle, csv []byte) map[string]string {
	var meta struct {
		Annotations map[string]string `json:"annotations"`
	}
	for _, p := range b.Properties {
		if p.Type == declcfg.PropertyCSVMetadata && json.Unmarshal(p.Value, &meta) == nil && meta.Annotations != nil {
			return meta.Annotations
		}
	}
	if csv == nil {
		if objects, err := b.Objects(); err == nil {
			if i := declcfg.CSVIndex(objects); i >= 0 {
				csv = objects[i]
			}
		}
	}
	var obj struct {
		Metadata struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
	}
	if csv != nil && json.Unmarshal(csv, &obj) == nil {
		return obj.Metadata.Annotations
	}
	return nil
}
