package author

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/author/repoconfig"
	"github.com/fbcat/opm/author/request"
	"github.com/fbcat/opm/author/yamledit"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

// ReleaseRequest is what to release: a bundle directory and the image it
// is pushed as. Where it goes comes from the directory's
// release-config.yaml, or, without one, from Target.
type ReleaseRequest struct {
	BundleDir string
	Image     string
	// Target is used when the bundle directory has no
	// release-config.yaml; Target.Template "" means every mapped
	// template.
	Target *repoconfig.ReleaseTarget
	// NewChannel makes channels no template has even when their names
	// are near misses of existing ones (see Package.Release).
	NewChannel bool
}

// Validate checks that the request gives what a release needs, the
// bundle directory and the image, and that its values can be what they
// are for: the image a pull spec that names its registry, and Target's
// channels and bundles names, its skip range a semver range. Where the
// bundle goes depends on the directory (its release-config.yaml, or else
// Target), which Release checks.
func (r ReleaseRequest) Validate() error {
	switch {
	case r.BundleDir == "":
		return request.Required("author.ReleaseRequest", "BundleDir", "the bundle's directory, operators/<pkg>/<version>")
	case r.Image == "":
		return request.Required("author.ReleaseRequest", "Image", "the pull spec the bundle is (or will be) pushed as")
	}
	v := request.Values{Request: "author.ReleaseRequest"}
	v.Image("Image", r.Image)
	if t := r.Target; t != nil {
		v.Channels("Target.Channels", t.Channels)
		v.Bundle("Target.Replaces", t.Replaces)
		v.Bundles("Target.Skips", t.Skips)
		v.SkipRange("Target.SkipRange", t.SkipRange)
		v.TemplateFile("Target.TemplateFile", t.TemplateFile)
	}
	return v.Err()
}

// released is the bundle being released: its blob (rendered from its
// directory with the image) and where it goes.
type released struct {
	fbc declcfg.Bundle
	pkg string // the FBC package
	// rc says where it goes: its release-config.yaml, or the request's
	// Target (rc.File "").
	rc    *repoconfig.ReleaseConfig
	notes []string // what the user should know about the directory
	// csvReplaces and version are the CSV's spec.replaces and version.
	csvReplaces string
	version     semver.Version
}

// Release adds a bundle to the templates its release-config.yaml (or the
// request) names, as the community release pipeline does, and renders
// the catalogs of those templates again: a basic template gets the
// channels it lacks, an olm.bundle entry with the image and an entry
// {name, replaces, skips, skipRange} in each channel (and the default
// channel when given); a semver template gets {Image: ...} in each
// stream named. The bundle directory must be one of the package's (see
// Repo.OpenBundleDir). A channel no template of the package has is made
// (and noted), but a near miss of an existing one (stabel beside stable)
// is refused unless req.NewChannel.
func (p *Package) Release(ctx context.Context, req ReleaseRequest, opts Options) (*Plan, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	dir, pkgName, err := p.Repo.bundleDir(req.BundleDir)
	if err != nil {
		return nil, err
	}
	if pkgName != p.Name {
		return nil, fmt.Errorf("%s is a bundle directory of operator %s, not of %s", req.BundleDir, pkgName, p.Name)
	}
	rel, err := p.readRelease(dir, req)
	if err != nil {
		return nil, err
	}
	if err := p.checkNotReleased(rel); err != nil {
		return nil, err
	}
	notes, err := p.checkTargets(rel, req.NewChannel)
	if err != nil {
		return nil, err
	}
	notes = append(slices.Clone(rel.notes), notes...)
	e, base := edited{}, based{}
	var where []string
	channels := p.channelCheck(req.NewChannel)
	for _, target := range rel.rc.Targets {
		t, err := p.Template(target.TemplateFile)
		if err != nil {
			return nil, err
		}
		var data []byte
		var chose []string
		if t.Kind() == template.Semver {
			var listed []byte
			data, listed, err = releaseSemver(t, target, rel)
			if listed != nil {
				base[t] = listed
				notes = append(notes, fmt.Sprintf("%s already listed %s: its catalogs are rendered with it", t.TemplateFile, rel.fbc.Image))
			}
		} else {
			data, chose, err = p.releaseBasic(t, target, rel, channels)
		}
		if err != nil {
			return nil, err
		}
		e[t] = data
		notes = append(notes, chose...)
		where = append(where, fmt.Sprintf("%s (%s)", t.TemplateFile, strings.Join(target.Channels, ", ")))
	}
	src := p.sourceWith(opts)
	src.Add(&rel.fbc)
	plan, err := p.planChecked(ctx, e, base, src, opts, nil)
	if err != nil {
		return nil, err
	}
	plan.Summary = fmt.Sprintf("released %s into %s; %s rendered", rel.fbc.Name, strings.Join(where, ", "), Plural(countKind(plan, KindCatalog), "catalog"))
	plan.Notes = append(append(plan.Notes, notes...), channels.notes()...)
	return plan, nil
}

// checkTargets checks where the bundle goes (its release-config.yaml, or
// the request's Target) with repoconfig's Check, the one check of
// release-config.yaml that lint makes too, and refuses with every problem
// it finds, each at its key's line: a channel that is a near miss of an
// existing or a conventional one needs newChannel. Its warnings are
// returned as notes.
func (p *Package) checkTargets(rel *released, newChannel bool) ([]string, error) {
	var notes []string
	var errs []error
	for _, pr := range rel.rc.Check(p.ReleaseFacts()) {
		switch {
		case pr.Warning:
			notes = append(notes, pr.Error())
		case errors.Is(pr, repoconfig.ErrNearMissChannel):
			if !newChannel {
				ne := needNewChannel(pr.Msg, "author.ReleaseRequest.NewChannel")
				errs = append(errs, &repoconfig.Error{File: pr.File, Line: pr.Line, Key: pr.Key, Near: pr.Near, Msg: ne.Error(), Err: ne})
			}
		default:
			errs = append(errs, pr)
		}
	}
	return notes, errors.Join(errs...)
}

// ReleaseFacts are what a release-config.yaml of the package is checked
// against: its mapped templates, the channels of each, its bundles.
func (p *Package) ReleaseFacts() repoconfig.ReleaseFacts {
	f := repoconfig.ReleaseFacts{Operator: p.Dir, Package: p.FBCPackage(), CIFile: p.CI.File, Bundles: p.bundleNames()}
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

// countKind counts the changes of a kind.
func countKind(p *Plan, kind string) int {
	n := 0
	for _, c := range p.Changes {
		if c.Kind == kind {
			n++
		}
	}
	return n
}

// OpenBundleDir opens the operator a bundle directory belongs to: the
// directory is given as a path relative to the working directory, or
// else to the root, and must be operators/<pkg>/<version>/ under the
// root.
func (r *Repo) OpenBundleDir(ctx context.Context, given string) (*Package, error) {
	_, pkg, err := r.bundleDir(given)
	if err != nil {
		return nil, err
	}
	return r.Open(ctx, pkg)
}

// bundleDir finds a bundle directory given as a path (relative to the
// working directory, or else to the root) and the operator it belongs
// to: it must be operators/<pkg>/<version>/ under the root.
func (r *Repo) bundleDir(given string) (dir, pkg string, err error) {
	if err := r.CheckRoot(); err != nil {
		return "", "", err
	}
	dir = given
	if st, err := os.Stat(dir); (err != nil || !st.IsDir()) && !filepath.IsAbs(given) {
		dir = filepath.Join(r.Root, given)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return "", "", fmt.Errorf("bundle directory %s: %w%s", given, err, r.bundleDirHint(given))
	}
	if !st.IsDir() {
		return "", "", fmt.Errorf("%s is not a directory: give the bundle's directory, operators/<pkg>/<version>", given)
	}
	abs, _ := filepath.Abs(dir)
	root, _ := filepath.Abs(r.Root)
	ops := filepath.Dir(filepath.Dir(abs))
	if filepath.Base(ops) != "operators" || filepath.Dir(ops) != root {
		return "", "", fmt.Errorf("%s is not a bundle directory of this repository: give operators/<pkg>/<version> under %s", given, r.Root)
	}
	return abs, filepath.Base(filepath.Dir(abs)), nil
}

// readRelease renders the bundle directory with the image and reads where
// it goes.
func (p *Package) readRelease(dir string, req ReleaseRequest) (*released, error) {
	rel := path.Join(p.Dir, filepath.Base(dir))
	if err := render.BundleWithoutMetadata(dir); err != nil {
		return nil, refuse("%w", err)
	}
	fbc, err := render.BundleFromDir(dir, req.Image)
	if err != nil {
		return nil, refuse("%w", err)
	}
	pp, _ := packageProperty(fbc)
	if !strings.Contains(fbc.Name, pp.Version) {
		return nil, refuse("bundle directory %s holds a ClusterServiceVersion named %s, version %s: its name does not carry its version (name it %s.v%s)", rel, fbc.Name, pp.Version, fbc.Package, pp.Version)
	}
	out := &released{fbc: *fbc, pkg: fbc.Package, csvReplaces: csvReplaces(fbc), version: bundleVersion(fbc)}
	if base := filepath.Base(dir); base != pp.Version && base != "v"+pp.Version {
		// The release pipeline releases it all the same: a warning.
		out.notes = append(out.notes, fmt.Sprintf("bundle directory %s holds %s, version %s: a bundle's directory is usually named after its version (operators/%s/%s)", rel, fbc.Name, pp.Version, p.Name, pp.Version))
	}
	if fbcPkg := p.FBCPackage(); fbcPkg != "" && fbcPkg != fbc.Package {
		return nil, refuse("bundle directory %s is a bundle of package %q, but the catalogs of %s hold package %q", rel, fbc.Package, p.Dir, fbcPkg)
	}
	cfgFile := path.Join(rel, "release-config.yaml")
	data, err := os.ReadFile(filepath.Join(dir, "release-config.yaml"))
	switch {
	case err == nil && req.Target != nil:
		return nil, needNoTarget(cfgFile + " says where the bundle is released")
	case err == nil:
		rc, err := repoconfig.ParseReleaseConfig(cfgFile, data)
		if rc == nil {
			return nil, err
		}
		out.rc = rc // its mistakes are checkTargets'
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	case req.Target == nil || len(req.Target.Channels) == 0:
		return nil, needTarget(rel + " has no release-config.yaml")
	case req.Target.TemplateFile != "":
		out.rc = &repoconfig.ReleaseConfig{Targets: []repoconfig.ReleaseTarget{*req.Target}}
	default:
		out.rc = &repoconfig.ReleaseConfig{}
		for _, t := range p.Templates {
			target := *req.Target
			target.TemplateFile = t.TemplateFile
			out.rc.Targets = append(out.rc.Targets, target)
		}
	}
	return out, nil
}

// checkNotReleased refuses a bundle whose image or name a template or
// catalog of the package already has.
func (p *Package) checkNotReleased(rel *released) error {
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		for _, b := range c.Config.Bundles {
			switch {
			case b.Image == rel.fbc.Image:
				return refuse("%s is already released: %s holds it as %s", rel.fbc.Image, c.Path, b.Name)
			case b.Name == rel.fbc.Name:
				return refuse("%s is already released: %s holds it, as image %s", rel.fbc.Name, c.Path, b.Image)
			}
		}
	}
	return nil
}

// releaseBasic adds the bundle to a basic template (made when missing),
// and says what it chose for the bundle (see chooseReplaces).
func (p *Package) releaseBasic(t *Template, target repoconfig.ReleaseTarget, rel *released, channels *channelCheck) ([]byte, []string, error) {
	data := t.Data
	if data == nil {
		data = []byte("---\nschema: olm.template.basic\nentries:\n")
	}
	d, err := openBasic(&Template{Mapping: t.Mapping, Path: t.Path, Data: data})
	if err != nil {
		return nil, nil, err
	}
	if d.pkg() == nil {
		def := target.DefaultChannel
		if def == "" {
			def = target.Channels[0]
		}
		if err := d.f.Append(d.entries, yamledit.Map{{Key: "schema", Value: "olm.package"}, {Key: "name", Value: rel.pkg}, {Key: "defaultChannel", Value: def}}); err != nil {
			return nil, nil, err
		}
	} else if target.DefaultChannel != "" {
		if err := d.f.Set(d.pkg(), "defaultChannel", target.DefaultChannel); err != nil {
			return nil, nil, err
		}
	}
	var chose []string
	for _, name := range target.Channels {
		replaces, note, err := p.chooseReplaces(d, name, target, rel)
		if err != nil {
			return nil, nil, err
		}
		if note != "" {
			chose = append(chose, note)
		}
		channels.note(name)
		if err := d.addEntry(name, rel.pkg, entryMap(rel.fbc.Name, replaces, target.Skips, target.SkipRange)); err != nil {
			return nil, nil, err
		}
	}
	if !d.holds(rel.fbc.Image) {
		if err := d.f.Append(d.entries, yamledit.Map{{Key: "schema", Value: "olm.bundle"}, {Key: "image", Value: rel.fbc.Image}}); err != nil {
			return nil, nil, err
		}
	}
	out, err := d.f.Bytes()
	return out, chose, err
}

// addEntry appends an entry to a channel, making the channel when the
// template has none of that name.
func (d *basicDoc) addEntry(channel, pkg string, entry yamledit.Map) error {
	ch := d.channel(channel)
	if ch == nil {
		return d.f.Append(d.entries, channelMap(d, channel, pkg, entry))
	}
	name := entry[0].Value.(string)
	if e := entryNamed(ch, name); e != nil {
		return refuse("%s:%d: channel %s already has an entry for %s", d.t.Path, e.Line, channel, name)
	}
	list := channelEntries(ch)
	if list == nil {
		return d.f.Set(ch, "entries", []any{entry})
	}
	return d.f.Append(list, entry)
}

// releaseSemver adds the bundle's image to the streams a semver template
// (made when missing) releases it into (checkTargets checked that the
// channels name streams). A template that lists the image already (put
// there by hand, its catalogs not rendered) is also returned without it,
// as base: its catalogs are checked against that and rendered with it,
// as the release pipeline renders them.
func releaseSemver(t *Template, target repoconfig.ReleaseTarget, rel *released) (data, base []byte, err error) {
	data = t.Data
	if data == nil {
		data = []byte("---\nSchema: olm.semver\nGenerateMajorChannels: true\nGenerateMinorChannels: true\n")
	}
	if t.Data != nil {
		if base, err = withoutImage(t, rel.fbc.Image); err != nil {
			return nil, nil, err
		}
	}
	d, err := openSemver(&Template{Mapping: t.Mapping, Path: t.Path, Data: data})
	if err != nil {
		return nil, nil, err
	}
	for _, ch := range target.Channels {
		stream := repoconfig.SemverStream(ch)
		if stream == "" || slices.Contains(d.images(stream), rel.fbc.Image) {
			continue
		}
		if err := d.addImage(stream, rel.fbc.Image); err != nil {
			return nil, nil, err
		}
	}
	data, err = d.f.Bytes()
	return data, base, err
}

// withoutImage is a semver template's text without an image, nil when it
// does not list it.
func withoutImage(t *Template, image string) ([]byte, error) {
	d, err := openSemver(t)
	if err != nil || !d.holds(image) {
		return nil, err
	}
	if err := d.removeImage(image); err != nil {
		return nil, err
	}
	return d.f.Bytes()
}

// bundleNames lists the names of the bundles of the package's catalogs,
// sorted.
func (p *Package) bundleNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		for _, b := range c.Config.Bundles {
			if !seen[b.Name] {
				seen[b.Name] = true
				out = append(out, b.Name)
			}
		}
	}
	slices.Sort(out)
	return out
}
