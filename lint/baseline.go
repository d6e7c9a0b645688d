package lint

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/render"
)

// baseline is what catalogs were before the change being linted: a
// directory, or a git ref read with git archive (no worktree, nothing
// written).
type baseline struct {
	dir string
	ref string
}

// newBaseline reads --baseline: an existing directory, else a git ref of
// the repository the paths are in.
func newBaseline(b string, paths []string) (*baseline, error) {
	if st, err := os.Stat(b); err == nil {
		if !st.IsDir() {
			return nil, fmt.Errorf("--baseline %s is a file: give the catalog directory as it was, the repository root as it was, or a git ref", b)
		}
		catalogs := 0
		for _, p := range paths {
			if st, err := os.Stat(p); err == nil && st.IsDir() && !render.IsBundleDir(p) && !isOperatorDir(p) {
				catalogs++
			}
		}
		if catalogs > 1 {
			return nil, fmt.Errorf("--baseline %s is a directory, which is the baseline of one catalog, but %d catalog directories are linted: lint them one at a time, or give a git ref", b, catalogs)
		}
		return &baseline{dir: b}, nil
	}
	dir := "."
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			dir = p
			break
		}
	}
	if _, err := git(context.Background(), dir, "rev-parse", "--verify", "--quiet", b+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--baseline %s is neither a directory nor a commit of the git repository at %s: give a path, or a branch, tag or commit (%v)", b, dir, err)
	}
	return &baseline{ref: b}, nil
}

// catalogFor is the baseline of the catalog directory dir: the baseline
// directory itself, or dir at the ref. It is nil when the ref has no such
// directory (a new catalog).
func (bl *baseline) catalogFor(ctx context.Context, dir string) (*model.Catalog, error) {
	if bl.dir != "" {
		return loadBaseline(ctx, os.DirFS(bl.dir), bl.dir)
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, nil // an image: no git history
	}
	fsys, err := gitTree(ctx, dir, bl.ref)
	if err != nil || fsys == nil {
		return nil, err
	}
	return loadBaseline(ctx, fsys, dir+"@"+bl.ref)
}

// repoCatalogFor is the baseline of the catalog directory rel (relative
// to the repository root) of a repository: rel under the baseline
// directory, or at the ref; nil when there is none.
func (bl *baseline) repoCatalogFor(ctx context.Context, root, rel string) (*model.Catalog, error) {
	if bl.dir == "" {
		return bl.catalogFor(ctx, filepath.Join(root, rel))
	}
	dir := filepath.Join(bl.dir, rel)
	if _, err := os.Stat(dir); err != nil {
		return nil, nil
	}
	return loadBaseline(ctx, os.DirFS(dir), dir)
}

// loadBaseline loads a baseline catalog's graph.
func loadBaseline(ctx context.Context, fsys fs.FS, name string) (*model.Catalog, error) {
	cfg, err := declcfg.LoadFS(ctx, fsys, declcfg.WithRootName(name), declcfg.WithoutBulkValues())
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", notLoaded(name, err))
	}
	m, err := indexCatalog(name, cfg)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	return m, nil
}

// git runs git in dir and returns its standard output.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
		}
		return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return out, nil
}

// gitTree reads the directory dir as it is at ref into memory, nil when
// the ref does not have it.
func gitTree(ctx context.Context, dir, ref string) (fs.FS, error) {
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--baseline %s: %s is not in a git repository: %w", ref, dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	root := strings.TrimSpace(string(top))
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, err
	}
	tree := ref + "^{tree}"
	if rel != "." {
		tree = ref + ":" + filepath.ToSlash(rel)
	}
	// git archive reads paths relative to the working directory: run it
	// at the top.
	if _, err := git(ctx, root, "cat-file", "-e", tree); err != nil {
		return nil, nil // not there at ref: a new catalog
	}
	data, err := git(ctx, root, "archive", "--format=tar", tree)
	if err != nil {
		return nil, fmt.Errorf("--baseline %s: %w", ref, err)
	}
	return untar(data)
}

// untar reads the regular files of a tar archive into memory.
func untar(data []byte) (fs.FS, error) {
	files := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			fsys, err := declcfg.NewMemFS(files)
			if err != nil {
				return nil, fmt.Errorf("reading git archive: %w", err)
			}
			return fsys, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading git archive: %w", err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("reading git archive: %w", err)
		}
		files[strings.TrimPrefix(h.Name, "./")] = body
	}
}
