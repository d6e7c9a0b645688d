package stage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/fbcat/opm/internal/parallel"
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
// large repository has thousands of such directories, read eight at a
// time; the errors of all that fail are joined.
func removeLeftovers(root string) ([]string, error) {
	var dirs []string
	for _, v := range subdirs(root, "catalogs") {
		for _, pkg := range subdirs(root, path.Join("catalogs", v)) {
			dirs = append(dirs, path.Join("catalogs", v, pkg))
		}
	}
	for _, op := range subdirs(root, "operators") {
		dirs = append(dirs, path.Join("operators", op, "catalog-templates"))
	}
	removed := make([][]string, len(dirs))
	err := parallel.DoAll(context.Background(), len(dirs), 8, func(i int) error {
		var err error
		removed[i], err = removeLeftoversIn(root, dirs[i])
		return err
	})
	return slices.Concat(removed...), err
}

// removeLeftoversIn removes the temporary files of older opm releases
// from one root-relative directory (none if it cannot be read).
func removeLeftoversIn(root, dir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
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
		if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("removing %s, left by an older opm: %w", rel, err))
			continue
		}
		removed = append(removed, rel)
	}
	return removed, errors.Join(errs...)
}

// subdirs lists the names of the directories in the root-relative
// directory dir (none if it cannot be read).
func subdirs(root, dir string) []string {
	entries, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
