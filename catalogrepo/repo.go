package catalogrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/internal/suggest"
)

// Repo is a catalog repository: operators/ and catalogs/ under Root.
type Repo struct {
	Root string
}

// Path joins a root-relative slash path to the root.
func (r *Repo) Path(rel string) string { return filepath.Join(r.Root, filepath.FromSlash(rel)) }

// readOptional reads a file, returning nil without error when it does not
// exist.
func (r *Repo) readOptional(rel string) ([]byte, error) {
	data, err := os.ReadFile(r.Path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// exists reports whether a file exists.
func (r *Repo) exists(rel string) (bool, error) {
	_, err := os.Stat(r.Path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// CheckRoot reports whether Root is a catalog repository: a directory
// with an operators/ directory. Every way into the repository asks it
// first, so that a caller outside a repository is told so in one way (a
// *NotRepositoryError) before anything else is read. An operators/ that
// is not a directory is left to the reading that fails on it, which says
// so.
func (r *Repo) CheckRoot() error {
	_, err := os.Stat(r.Path("operators"))
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return notARepository(r.Root)
	case err != nil:
		return fmt.Errorf("reading the repository %s: %w", r.Root, err)
	}
	return nil
}

// FindRoot looks for the repository root from dir upwards: the first
// directory that has an operators/ directory. It returns dir when none
// has.
func FindRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "operators")); err == nil && st.IsDir() {
			if rel, err := filepath.Rel(abs, d); err == nil && !filepath.IsAbs(dir) {
				return filepath.Join(dir, rel)
			}
			return d
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}

// Packages lists, sorted, the operator directories maintained as
// file-based catalogs: those whose ci.yaml has fbc.enabled: true (or
// cannot be read, so that opening them says why).
func (r *Repo) Packages() ([]string, error) {
	if err := r.CheckRoot(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(r.Path("operators"))
	if err != nil {
		return nil, fmt.Errorf("listing the operators of %s: %w", r.Root, err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		file := path.Join("operators", e.Name(), "ci.yaml")
		data, err := os.ReadFile(r.Path(file))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			if _, err := repoconfig.ParseCIConfig(file, data); errors.Is(err, repoconfig.ErrNotFBC) {
				continue
			}
		}
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names, nil
}

// Operators lists the operator directories (those with a ci.yaml),
// sorted: the names "did you mean" chooses from and completion offers.
func (r *Repo) Operators() []string {
	entries, _ := os.ReadDir(r.Path("operators"))
	var names []string
	for _, e := range entries {
		if _, err := os.Stat(r.Path(path.Join("operators", e.Name(), "ci.yaml"))); e.IsDir() && err == nil {
			names = append(names, e.Name())
		}
	}
	return names
}

// Versions lists an operator's bundle directories (operators/<pkg>/<v>),
// sorted: every directory but catalog-templates.
func (r *Repo) Versions(pkg string) []string {
	entries, _ := os.ReadDir(r.Path(path.Join("operators", pkg)))
	var names []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "catalog-templates" && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// CheckOperatorName refuses a name that cannot be an operator
// directory's.
func CheckOperatorName(name string) error {
	if err := repoconfig.PlainName("operator", nil, "operator name", name); err != nil || name == "" {
		return fmt.Errorf("invalid operator name %q: give the name of a directory under operators/", name)
	}
	return nil
}

// noOperator explains a missing operator directory.
func (r *Repo) noOperator(name string) error {
	if _, err := os.Stat(r.Path("operators")); err != nil {
		return notARepository(r.Root)
	}
	if _, err := os.Stat(r.Path(path.Join("operators", name))); err != nil {
		ops, why := r.Operators(), ""
		near := suggest.Near(name, ops)
		for _, op := range ops {
			if len(near) == 0 && (strings.HasPrefix(name, op) || strings.HasPrefix(op, name)) {
				near, why = []string{op}, " (commands take the operator's directory name, which need not be its package's)"
			}
		}
		err := UnknownName("operator", name, near, ops, "no operator %q: operators/%s does not exist", name, name)
		err.Msg += why
		return err
	}
	return Refuse("operators/%s has no ci.yaml: it says which templates render which catalogs (fbc.catalog_mapping)", name)
}
