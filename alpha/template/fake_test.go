package template

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// fakeBundles renders bundles from memory: image -> bundle.
type fakeBundles map[string]*Bundle

func (f fakeBundles) RenderBundle(_ context.Context, ref string) (*Bundle, error) {
	b, ok := f[ref]
	if !ok {
		return nil, fmt.Errorf("failed to pull image %q: image not found", ref)
	}
	c := *b
	return &c, nil
}

// bundle makes a bundle of pkg at version (with a release after a space:
// "1.0.0 2"), named as upstream names bundles, with the image
// quay.io/example/PKG:vVERSION (+ as -, and -rRELEASE for a release).
func bundle(pkg, version string) *Bundle {
	v, release, _ := strings.Cut(version, " ")
	name, tag := pkg+".v"+v, "v"+strings.ReplaceAll(v, "+", "-")
	if release != "" {
		name, tag = fmt.Sprintf("%s-v%s-%s", pkg, v, release), tag+"-r"+release
	}
	value, _ := json.Marshal(declcfg.PackageProperty{PackageName: pkg, Version: v, Release: release})
	return &Bundle{Bundle: declcfg.Bundle{
		Schema: declcfg.SchemaBundle, Name: name, Package: pkg, Image: "quay.io/example/" + pkg + ":" + tag,
		Properties: []declcfg.Property{{Type: declcfg.PropertyPackage, Value: value}},
	}}
}

// fakes makes a renderer of bundles of pkg, by image (see bundle).
func fakes(pkg string, versions ...string) fakeBundles {
	f := fakeBundles{}
	for _, v := range versions {
		b := bundle(pkg, v)
		f[b.Image] = b
	}
	return f
}

// render renders a template given as text.
func renderText(t *testing.T, text string, br BundleRenderer) (*declcfg.DeclarativeConfig, error) {
	t.Helper()
	in := Input{Name: "t.yaml", Data: []byte(text)}
	kind, err := Detect(in)
	if err != nil {
		return nil, err
	}
	return Expand(context.Background(), kind, in, br)
}

// channels summarises channels: "name: entry[>replaces][~skip,skip] ..."
// lines, sorted as written.
func channels(cfg *declcfg.DeclarativeConfig) string {
	var lines []string
	for _, ch := range cfg.Channels {
		var es []string
		for _, e := range ch.Entries {
			s := strings.TrimPrefix(e.Name, ch.Package+".")
			if e.Replaces != "" {
				s += ">" + strings.TrimPrefix(e.Replaces, ch.Package+".")
			}
			if len(e.Skips) > 0 {
				var sk []string
				for _, k := range e.Skips {
					sk = append(sk, strings.TrimPrefix(k, ch.Package+"."))
				}
				s += "~" + strings.Join(sk, ",")
			}
			es = append(es, s)
		}
		lines = append(lines, ch.Name+": "+strings.Join(es, " "))
	}
	return strings.Join(lines, "\n")
}
