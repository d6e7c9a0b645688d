package lint

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/layout"
	"github.com/fbcat/opm/registryv1/openshift"
)

// The catalogs of an operator directory: ci.yaml maps each template to
// catalogs (one per OpenShift version), which hold the same bundles, so
// a problem with a bundle is found once per catalog. Lint reports it
// once, naming the catalogs (finding.Merge), at the line a maintainer
// edits: the template line that names the bundle (its image line), the
// channel entry, the channel or the package (a basic template's), when
// the catalog is rendered from a template that has it; at the catalog's
// line otherwise. Findings outside the catalog (in a bundle directory's
// files) stay where they are and are merged there.
//
// Two findings of different catalogs are the same when their rule,
// severity, package, bundle, object, pipeline check, reasons and message
// are (the message with the catalog's own path left out), and what they
// point at in their catalogs is: a bundle (whatever the channel it was
// met through), a channel entry or a channel of the same name, the
// package, or the rest of the catalog, in the same channel; or the same
// line of the same file outside the catalogs. A message should not quote
// its catalog's path (the finding keeps one catalog's message), and
// should word what depends on a catalog's OpenShift version so that
// findings with the same fix are the same (removed-api, openshift-range:
// "these catalogs", named by the finding's Catalogs).

// placer moves the findings of one mapped catalog to its template.
type placer struct {
	file     string // the catalog's file, as findings name it
	template string // the template's file, as findings name it
	lines    *catalogrepo.TemplateLines
	packages map[int]bool      // catalog lines where a package starts
	entries  map[int][2]string // catalog line: channel and bundle of the entry there
	channels map[int]string    // catalog line: the channel that starts there
	images   map[string]string // bundle: image
}

// newPlacer indexes a catalog (its positions relative to the working
// directory) and its template's lines.
func newPlacer(root string, c *catalogrepo.Catalog, lines *catalogrepo.TemplateLines) *placer {
	pl := &placer{
		file: filepath.ToSlash(filepath.Join(root, c.Path)), lines: lines,
		packages: map[int]bool{}, entries: map[int][2]string{}, channels: map[int]string{}, images: map[string]string{},
	}
	if c.Template != nil {
		pl.template = filepath.ToSlash(filepath.Join(root, c.Template.Path))
	}
	if c.Config == nil {
		return pl
	}
	for _, p := range c.Config.Packages {
		pl.packages[p.Pos.Line] = true
	}
	for _, ch := range c.Config.Channels {
		pl.channels[ch.Pos.Line] = ch.Name
		for _, e := range ch.Entries {
			if e.Line > 0 {
				pl.entries[e.Line] = [2]string{ch.Name, e.Name}
			}
		}
	}
	for _, b := range c.Config.Bundles {
		pl.images[b.Name] = b.Image
	}
	return pl
}

// The kinds of places in a catalog, for merge keys.
const (
	placeEntry   = "entry"
	placeChannel = "channel"
	placeBundle  = "bundle"
	placePackage = "package"
	placeOther   = "catalog"
)

// place moves a finding of the catalog to its template line, when the
// template has one for it, and returns its merge key.
func (pl *placer) place(f *finding.Finding) string {
	if filepath.ToSlash(f.File) != pl.file {
		return mergeKey(f, fmt.Sprintf("file\x00%s\x00%d", f.File, f.Line), pl)
	}
	kind, channel, line := placeOther, f.Channel, 0
	e, isEntry := pl.entries[f.Line]
	ch, isChannel := pl.channels[f.Line]
	switch {
	case f.Line > 0 && isEntry:
		kind, channel, line = placeEntry, e[0], pl.lines.Entry(e[0], e[1])
	case f.Line > 0 && isChannel:
		kind, channel, line = placeChannel, ch, pl.lines.Channel(ch)
	case f.Bundle != "":
		kind, channel, line = placeBundle, "", pl.lines.Image(pl.images[f.Bundle])
	case f.Line > 0 && pl.packages[f.Line]:
		kind, line = placePackage, pl.lines.Package()
	}
	if line > 0 {
		f.File, f.Line = pl.template, line
	}
	return mergeKey(f, kind+"\x00"+channel, pl)
}

// keep leaves a finding about the catalog itself (the pipeline's checks
// of a catalog's content, whose fix is the catalog rendered again) at its
// catalog line, and returns its merge key.
func (pl *placer) keep(f *finding.Finding) string {
	return mergeKey(f, placeOther+"\x00"+f.Channel, pl)
}

// catalogLineRef is the line a message quotes of the catalog, after its
// path.
var catalogLineRef = regexp.MustCompile("\x01:\\d+")

// mergeKey is what two findings of different catalogs share when they
// are the same (see above); where is what they point at.
func mergeKey(f *finding.Finding, where string, pl *placer) string {
	msg := strings.ReplaceAll(f.Message, pl.file, "\x01")
	msg = catalogLineRef.ReplaceAllString(msg, "\x01")
	return strings.Join([]string{f.Rule, string(f.Severity), f.Package, f.Bundle, f.Object, f.Check, fmt.Sprint(f.Reasons), msg, where}, "\x00")
}

// catalogFindings are one catalog's findings: those to place at the
// template line, and those about the catalog itself, which stay.
type catalogFindings struct {
	placed, kept []finding.Finding
}

// mergeCatalogs places the findings of an operator directory's catalogs
// (each with its placer) and reports each once.
func mergeCatalogs(found []catalogFindings, placers []*placer) []finding.Finding {
	var all []finding.Finding
	var keys []string
	for i, fs := range found {
		for j := range fs.placed {
			keys = append(keys, placers[i].place(&fs.placed[j]))
		}
		for j := range fs.kept {
			keys = append(keys, placers[i].keep(&fs.kept[j]))
		}
		all = append(append(all, fs.placed...), fs.kept...)
	}
	return finding.Merge(all, keys)
}

// releasedIn lists, for each bundle of the catalogs an operator
// directory maps, the OpenShift versions of the catalogs that hold it.
func releasedIn(cats []*catalogrepo.Catalog) map[string][]openshift.Version {
	out := map[string][]openshift.Version{}
	for _, c := range cats {
		v, ok := layout.CatalogVersion(c.Name)
		if c.Config == nil || !ok {
			continue
		}
		for _, b := range c.Config.Bundles {
			out[b.Name] = append(out[b.Name], v)
		}
	}
	return out
}

// templateLines reads the lines of each template the catalogs are
// rendered from, once.
func templateLines(cats []*catalogrepo.Catalog) map[*catalogrepo.Template]*catalogrepo.TemplateLines {
	out := map[*catalogrepo.Template]*catalogrepo.TemplateLines{}
	for _, c := range cats {
		if _, ok := out[c.Template]; !ok && c.Template != nil {
			out[c.Template] = c.Template.Lines()
		}
	}
	return out
}
