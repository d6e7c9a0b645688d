// Package list tells what a file-based catalog holds, its packages,
// channels and bundles, as tables like upstream's `opm alpha list`.
package list

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/registryv1"
	"github.com/fbcat/opm/render"
	"github.com/fbcat/opm/validate"
)

// Catalog is a valid catalog arranged for listing.
type Catalog struct {
	m *model.Catalog
}

// Load reads the catalog that ref names, a catalog directory or a catalog
// image, and checks it as `opm validate` does. Bundle directories and
// images are refused: "cannot list non-index".
func Load(ctx context.Context, r *render.Renderer, ref string) (*Catalog, error) {
	var m *model.Catalog
	err := r.OpenCatalog(ctx, ref, func(fsys fs.FS, name string) error {
		res, err := validate.Validate(ctx, fsys, validate.Options{RootName: name, KeepConfig: true, KeepBulk: true})
		if err != nil {
			return err
		}
		m = res.Model
		return res.Err(ref)
	})
	if err != nil {
		if errors.Is(err, render.ErrNotAllowed) {
			return nil, fmt.Errorf("cannot list non-index %q: it is a bundle; list takes catalog directories and images", ref)
		}
		return nil, err
	}
	return &Catalog{m: m}, nil
}

// Package is a row of the packages table.
type Package struct {
	Name, DisplayName, DefaultChannel string
}

// Channel is a row of the channels table; Head is empty when HeadErr is
// set.
type Channel struct {
	Package, Name, Head string
	HeadErr             error
}

// Bundle is a row of the bundles table: one per bundle and channel.
type Bundle struct {
	Package, Channel, Name, Replaces string
	Skips                            []string
	SkipRange, Image                 string
	// Deprecated says what olm.deprecations deprecates of the bundle as
	// listed in this channel: "bundle", "channel" and "package", those
	// that apply, in that order.
	Deprecated []string
}

// Packages lists the packages, sorted by name. The display name is the
// one in the CSV (from olm.bundle.object properties) of the default
// channel's head, empty if there is none.
func (c *Catalog) Packages() []Package {
	var out []Package
	for _, name := range c.m.PackageNames() {
		p := c.m.Packages[name]
		row := Package{Name: name, DefaultChannel: p.Decl.DefaultChannel}
		if ch := p.DefaultChannel(); ch != nil {
			if head, err := ch.Head(); err == nil {
				if b := p.Bundles[head]; b != nil {
					row.DisplayName = displayName(b.Decl)
				}
			}
		}
		out = append(out, row)
	}
	return out
}

// Channels lists the channels of one package (or all for ""), sorted by
// package and name, with their heads.
func (c *Catalog) Channels(pkgName string) ([]Channel, error) {
	pkgs, err := c.selected(pkgName)
	if err != nil {
		return nil, err
	}
	var out []Channel
	for _, p := range pkgs {
		for _, name := range p.ChannelNames() {
			head, err := p.Channels[name].Head()
			out = append(out, Channel{Package: p.Name, Name: name, Head: head, HeadErr: err})
		}
	}
	return out, nil
}

// Bundles lists the bundles of one package (or all for ""), once per
// channel they are in, sorted by package, channel and name.
func (c *Catalog) Bundles(pkgName string) ([]Bundle, error) {
	pkgs, err := c.selected(pkgName)
	if err != nil {
		return nil, err
	}
	var out []Bundle
	for _, p := range pkgs {
		for _, chName := range p.ChannelNames() {
			entries := slices.Clone(p.Channels[chName].Decl.Entries)
			slices.SortStableFunc(entries, func(a, b declcfg.ChannelEntry) int { return strings.Compare(a.Name, b.Name) })
			for _, e := range entries {
				row := Bundle{Package: p.Name, Channel: chName, Name: e.Name, Replaces: e.Replaces, Skips: e.Skips, SkipRange: e.SkipRange}
				if b := p.Bundles[e.Name]; b != nil {
					row.Image = b.Decl.Image
				}
				row.Deprecated = deprecated(p, chName, e.Name)
				out = append(out, row)
			}
		}
	}
	return out, nil
}

// deprecated lists which of a bundle, the channel it is listed in and
// its package are deprecated.
func deprecated(p *model.Package, channel, bundle string) []string {
	var out []string
	for _, ref := range []struct{ schema, name, word string }{
		{declcfg.SchemaBundle, bundle, "bundle"},
		{declcfg.SchemaChannel, channel, "channel"},
		{declcfg.SchemaPackage, "", "package"},
	} {
		if _, ok := p.Deprecated(ref.schema, ref.name); ok {
			out = append(out, ref.word)
		}
	}
	return out
}

func (c *Catalog) selected(name string) ([]*model.Package, error) {
	if name == "" {
		var out []*model.Package
		for _, n := range c.m.PackageNames() {
			out = append(out, c.m.Packages[n])
		}
		return out, nil
	}
	p, ok := c.m.Packages[name]
	if !ok {
		return nil, fmt.Errorf("package %q not found", name)
	}
	return []*model.Package{p}, nil
}

// displayName reads spec.displayName from the bundle's CSV object.
func displayName(b *declcfg.Bundle) string {
	objects, err := b.Objects()
	if err != nil {
		return ""
	}
	i := declcfg.CSVIndex(objects)
	if i < 0 {
		return ""
	}
	csv, err := registryv1.ParseCSV(objects[i])
	if err != nil {
		return ""
	}
	return csv.Spec.DisplayName
}

// newTable writes aligned columns as upstream's tables are.
func newTable(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0) }

// WritePackages prints the packages table.
func WritePackages(w io.Writer, rows []Package) error {
	tw := newTable(w)
	fmt.Fprintf(tw, "NAME\tDISPLAY NAME\tDEFAULT CHANNEL\n")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.DisplayName, r.DefaultChannel)
	}
	return tw.Flush()
}

// WriteChannels prints the channels table.
func WriteChannels(w io.Writer, rows []Channel) error {
	tw := newTable(w)
	fmt.Fprintf(tw, "PACKAGE\tCHANNEL\tHEAD\n")
	for _, r := range rows {
		head := r.Head
		if r.HeadErr != nil {
			head = "ERROR: " + r.HeadErr.Error()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Package, r.Name, head)
	}
	return tw.Flush()
}

// WriteBundles prints the bundles table: upstream's columns, then
// DEPRECATED (last, so that upstream's columns keep their places).
func WriteBundles(w io.Writer, rows []Bundle) error {
	var buf bytes.Buffer
	tw := newTable(&buf)
	fmt.Fprintf(tw, "PACKAGE\tCHANNEL\tBUNDLE\tREPLACES\tSKIPS\tSKIP RANGE\tIMAGE\tDEPRECATED\n")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Package, r.Channel, r.Name, r.Replaces, strings.Join(r.Skips, ","), r.SkipRange, r.Image, strings.Join(r.Deprecated, ","))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// An empty last column leaves the padding of the one before it.
	for line := range bytes.Lines(buf.Bytes()) {
		if _, err := w.Write(append(bytes.TrimRight(line, " \n"), '\n')); err != nil {
			return err
		}
	}
	return nil
}
