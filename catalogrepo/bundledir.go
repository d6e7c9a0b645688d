package catalogrepo

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/internal/suggest"
)

// BundleDir finds a bundle directory given as a path (relative to the
// working directory, or else to the root) and the operator it belongs
// to: it must be operators/<pkg>/<version>/ under the root. A directory
// that is not there is told the ones it is likely a slip of.
func (r *Repo) BundleDir(given string) (dir, pkg string, err error) {
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

// bundleDirHint is ": did you mean operators/<pkg>/<version>?" for a
// bundle directory operators/<pkg>/<version> that is not there, naming
// the operators or versions it is likely a slip of, or "".
func (r *Repo) bundleDirHint(given string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(given)), "/")
	if len(parts) != 3 || parts[0] != "operators" {
		return ""
	}
	versions := r.Versions(parts[1])
	near := suggest.Versioned(parts[2], versions, func(v string) (semver.Version, bool) {
		parsed, err := semver.ParseTolerant(v)
		return parsed, err == nil
	})
	for i, v := range near {
		near[i] = path.Join(parts[0], parts[1], v)
	}
	if len(versions) == 0 {
		for _, op := range suggest.Near(parts[1], r.Operators()) {
			near = append(near, path.Join(parts[0], op, parts[2]))
		}
	}
	if len(near) == 0 {
		return ""
	}
	return fmt.Sprintf(": did you mean %s?", suggest.Or(near))
}
