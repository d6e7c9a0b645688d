// Package complete lists the names shell completion offers the catalog
// verbs of a repository: operators, bundle directories, bundles,
// versions, channels, templates, image repositories and catalogs. It
// reads directory names, ci.yaml and templates (catalogrepo's listings,
// the ones the verbs' "did you mean" chooses from) and, only for the
// bundles of a semver template, the top-level lines of the smallest
// catalog rendered from it: it runs on every TAB, so it loads no
// catalog. What cannot be read lists nothing: completion never fails
// aloud.
package complete

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
)

// Operators lists the repository's operators.
func Operators(r *author.Repo) []string { return r.Model().Operators() }

// Versions lists an operator's bundle directory names.
func Versions(r *author.Repo, op string) []string { return r.Model().Versions(op) }

// Channels lists the channels of an operator's templates (and the
// streams of its semver templates).
func Channels(r *author.Repo, op string) []string {
	if p := open(r, op); p != nil {
		return p.Channels()
	}
	return nil
}

// Templates lists the templates an operator's ci.yaml maps.
func Templates(r *author.Repo, op string) []string {
	if p := open(r, op); p != nil {
		return p.CI.TemplateFiles()
	}
	return nil
}

// Bundles lists, sorted, the bundles of an operator: those its basic
// templates' channels list, and those of the catalogs of its semver
// templates.
func Bundles(r *author.Repo, op string) []string {
	p := open(r, op)
	if p == nil {
		return nil
	}
	_, names := p.TemplateImages()
	for _, t := range p.Templates {
		if t.Type == repoconfig.TypeSemver {
			names = append(names, catalogBundles(t)...)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// ImageRepositories lists the repositories of the images an operator's
// templates name, each once and followed by ":", for a new bundle's
// --image (its tag is the one part completion cannot know).
func ImageRepositories(r *author.Repo, op string) []string {
	p := open(r, op)
	if p == nil {
		return nil
	}
	images, _ := p.TemplateImages()
	var out []string
	for _, img := range images {
		if repo := repository(img); repo != "" && !slices.Contains(out, repo+":") {
			out = append(out, repo+":")
		}
	}
	slices.Sort(out)
	return out
}

// repository is an image reference without its tag or digest.
func repository(ref string) string {
	ref, _, _ = strings.Cut(ref, "@")
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	return ref
}

// BundleDirs lists the bundle directories a release argument being typed
// can name: operators/<op>/ for each operator until one is typed, then
// operators/<op>/<version> for each of its versions.
func BundleDirs(r *author.Repo, typed string) []string {
	rest, ok := strings.CutPrefix(typed, "operators/")
	op, _, chosen := strings.Cut(rest, "/")
	var out []string
	if !ok || !chosen {
		for _, name := range r.Model().Operators() {
			out = append(out, "operators/"+name+"/")
		}
		return out
	}
	for _, v := range r.Model().Versions(op) {
		out = append(out, path.Join("operators", op, v))
	}
	return out
}

// Catalogs lists the catalog directories, catalogs/<name>, sorted.
func Catalogs(r *author.Repo) []string {
	entries, _ := os.ReadDir(path.Join(r.Root, "catalogs"))
	var out []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, "catalogs/"+e.Name())
		}
	}
	return out
}

// OperatorOf is the operator a bundle directory argument names
// (operators/<op>/<version>, relative to the root), or "".
func OperatorOf(bundleDir string) string {
	rest, ok := strings.CutPrefix(path.Clean(strings.ReplaceAll(bundleDir, "\\", "/")), "operators/")
	op, _, _ := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	return op
}

// open reads an operator's ci.yaml and templates, or nil.
func open(r *author.Repo, op string) *catalogrepo.Package {
	if op == "" {
		return nil
	}
	p, err := r.Model().OpenTemplates(op)
	if err != nil {
		return nil
	}
	return p
}
