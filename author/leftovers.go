package author

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"

	"golang.org/x/sync/errgroup"
)

// oldTempFile is the name of the temporary files older opm releases wrote
// beside a catalog or template before renaming them into place
// (".catalog.yaml.opm-123456"), which a killed run left behind: full
// copies of catalogs, so that validation fails with "duplicate package".
var oldTempFile = regexp.MustCompile(`^\..+\.opm-[0-9]+$`)

// removeLeftovers removes the temporary files of older opm releases from
// where they wrote them: the package directories of catalogs/
// (catalogs/<version>/<package>/) and the catalog-templates/ directory of
// every operator. It returns the files removed, root-relative, sorted. A
// large repository has thousands of such directories, read a few at a
// time.
func (r *Repo) removeLeftovers() ([]string, error) {
	var dirs []string
	for _, v := range r.subdirs("catalogs") {
		for _, pkg := range r.subdirs(path.Join("catalogs", v)) {
			dirs = append(dirs, path.Join("catalogs", v, pkg))
		}
	}
	for _, op := range r.subdirs("operators") {
		dirs = append(dirs, path.Join("operators", op, "catalog-templates"))
	}
	removed := make([][]string, len(dirs))
	errs := make([]error, len(dirs))
	var g errgroup.Group
	g.SetLimit(8)
	for i, dir := range dirs {
		g.Go(func() error {
			removed[i], errs[i] = r.removeLeftoversIn(dir)
			return nil
		})
	}
	_ = g.Wait()
	return slices.Concat(removed...), errors.Join(errs...)
}

// removeLeftoversIn removes the temporary files of older opm releases
// from one root-relative directory (none if it cannot be read).
func (r *Repo) removeLeftoversIn(dir string) ([]string, error) {
	entries, err := os.ReadDir(r.path(dir))
	if err != nil {
		return nil, nil // no such directory, or not one to clean
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() || !oldTempFile.MatchString(e.Name()) {
			continue
		}
		rel := path.Join(dir, e.Name())
		if err := os.Remove(r.path(rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("removing %s, left by an older opm: %w", rel, err))
			continue
		}
		removed = append(removed, rel)
	}
	return removed, errors.Join(errs...)
}

// subdirs lists the names of the directories in the root-relative
// directory dir (none if it cannot be read).
func (r *Repo) subdirs(dir string) []string {
	entries, _ := os.ReadDir(r.path(dir))
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
