package baseline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/fbcat/opm/lint/layout"
	"github.com/fbcat/opm/render"
)

// gitCopy is the linted paths as a git ref has them: extracted with git
// archive into a temporary directory, but for the bundle directories and
// catalogs the work tree has unchanged (lint's run over the baseline
// reuses what its run over the change read and found in them).
type gitCopy struct {
	ref string
	// top is the repository's top directory, tmp the copy of its paths at
	// the ref.
	top, tmp string
	// changed holds each file that differs between the ref and the work
	// tree, and each directory above one, relative to top (slashes).
	changed map[string]bool
	// kept are the bundle directories and catalogs the work tree has as
	// the ref has them, relative to top: the run over the baseline reuses
	// what the run over the change found in them (most are left out of
	// tmp).
	kept map[string]bool
	// done is closed when the extraction into tmp ended, with err; stop
	// ends it early (see Close). Nil when nothing is extracted.
	done chan struct{}
	err  error
	stop context.CancelFunc
}

// readGitCopy extracts what lint needs of the paths at ref: each path,
// and for an operator directory the catalogs of its package
// (catalogs/*/<pkg>), leaving out the bundle directories the change did
// not touch.
func readGitCopy(ctx context.Context, dir, ref string, paths []string) (*gitCopy, error) {
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s: %s is not in a git repository: %w", ref, dir, err)
	}
	g := &gitCopy{ref: ref, top: strings.TrimSpace(string(out)), changed: map[string]bool{}, kept: map[string]bool{}}
	var specs []string
	for _, p := range paths {
		s, err := g.specsFor(ctx, p)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s...)
	}
	if len(specs) == 0 {
		return g, nil // nothing linted is in the repository (images)
	}
	if err := g.readChanges(ctx, specs); err != nil {
		return nil, err
	}
	if g.tmp, err = os.MkdirTemp("", "opm-lint-baseline-"); err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	args, err := g.archiveArgs(ctx, specs)
	if err != nil {
		g.close()
		return nil, err
	}
	g.start(ctx, args)
	return g, nil
}

// rel is p relative to the top, with slashes; ok is false outside it.
func (g *gitCopy) rel(p string) (string, bool) {
	abs, err := canonical(p)
	if err != nil {
		return "", false
	}
	r, err := filepath.Rel(g.top, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// specsFor is what of the ref linting p needs: p, and the catalogs of an
// operator directory's package (all catalogs for operators/) and the
// repository's config.yaml, those the ref has.
func (g *gitCopy) specsFor(ctx context.Context, p string) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil || !st.IsDir() {
		return nil, nil // an image: no history
	}
	rel, ok := g.rel(p)
	if !ok {
		return nil, nil
	}
	want := []string{rel}
	switch {
	case layout.IsOperatorDir(p):
		cats, err := g.lsTree(ctx, true, path.Join(path.Dir(path.Dir(rel)), "catalogs")+"/")
		if err != nil {
			return nil, err
		}
		for _, c := range cats {
			want = append(want, path.Join(c, path.Base(rel)))
		}
		want = append(want, path.Join(path.Dir(path.Dir(rel)), layout.RepoConfig))
	case len(layout.OperatorDirsIn(p)) > 0:
		want = append(want, path.Join(path.Dir(rel), "catalogs"), path.Join(path.Dir(rel), layout.RepoConfig))
	}
	if rel == "." {
		return []string{"."}, nil
	}
	return g.lsTree(ctx, false, want...)
}

// lsTree lists the names git ls-tree gives at the ref for paths (only
// the directories with dirsOnly).
func (g *gitCopy) lsTree(ctx context.Context, dirsOnly bool, paths ...string) ([]string, error) {
	args := []string{"ls-tree", "-z", "--name-only"}
	if dirsOnly {
		args = append(args, "-d")
	}
	out, err := git(ctx, g.top, append(append(args, g.ref, "--"), paths...)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", g.ref, err)
	}
	return splitZ(out), nil
}

// splitZ splits NUL-terminated names.
func splitZ(out []byte) []string {
	var names []string
	for _, n := range strings.Split(string(out), "\x00") {
		if n != "" {
			names = append(names, n)
		}
	}
	return names
}

// readChanges records the files under specs that differ between the ref
// and the work tree (tracked changes and untracked files), and the
// directories above them.
func (g *gitCopy) readChanges(ctx context.Context, specs []string) error {
	diff, err := git(ctx, g.top, append([]string{"diff", "--name-only", "-z", "--no-renames", g.ref, "--"}, specs...)...)
	if err != nil {
		return fmt.Errorf("%s: %w", g.ref, err)
	}
	untracked, err := git(ctx, g.top, append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, specs...)...)
	if err != nil {
		return fmt.Errorf("%s: %w", g.ref, err)
	}
	for _, f := range append(splitZ(diff), splitZ(untracked)...) {
		for d := path.Clean(f); ; d = path.Dir(d) {
			g.changed[d] = true
			if d == "." || d == "/" {
				break
			}
		}
	}
	return nil
}

// unchanged reports whether the work tree's directory dir is a bundle
// directory or catalog that is as the ref has it.
func (g *gitCopy) unchanged(dir string) bool {
	rel, ok := g.rel(dir)
	return ok && g.kept[rel]
}

// archiveArgs are the git archive arguments that extract specs at the
// ref, but for the bundle directories of operator directories and the
// catalogs of catalogs directories that the ref has and the work tree
// has unchanged (recorded in kept: see keep).
func (g *gitCopy) archiveArgs(ctx context.Context, specs []string) ([]string, error) {
	args := append([]string{"archive", "--format=tar", g.ref, "--"}, specs...)
	for _, s := range specs {
		excluded, err := g.keep(ctx, s)
		if err != nil {
			return nil, err
		}
		for _, d := range excluded {
			args = append(args, ":(exclude)"+d)
		}
	}
	return args, nil
}

// start extracts with git archive into tmp in the background: what is
// extracted (the changed catalogs, tens of megabytes) is needed only
// once lint has read the work tree's bundle directories, and reading
// the ref's objects takes a core of its own. wait says when it is done.
func (g *gitCopy) start(ctx context.Context, args []string) {
	ctx, g.stop = context.WithCancel(ctx)
	g.done = make(chan struct{})
	go func() {
		defer close(g.done)
		g.err = g.extract(ctx, args)
	}()
}

// wait waits for the extraction and returns its error.
func (g *gitCopy) wait() error {
	if g.done == nil {
		return nil
	}
	<-g.done
	return g.err
}

// extract runs git archive with args and writes what it gives into tmp.
func (g *gitCopy) extract(ctx context.Context, args []string) error {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", g.top}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: git archive: %w", g.ref, err)
	}
	werr := untarTo(g.tmp, stdout)
	_, _ = io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("%s: git archive: %s", g.ref, strings.TrimSpace(stderr.String()))
	}
	if werr != nil {
		return fmt.Errorf("%s: %w", g.ref, werr)
	}
	return nil
}

// keep records what of the spec s the work tree has unchanged, and
// returns what need not be extracted: the bundle directories of an
// operator directory, the catalogs of a catalogs directory. A catalog
// directory on its own is extracted all the same (there must be
// something to lint), but its findings are reused.
func (g *gitCopy) keep(ctx context.Context, s string) ([]string, error) {
	dir := filepath.Join(g.top, filepath.FromSlash(s))
	var is func(string) bool
	switch {
	case layout.IsOperatorDir(dir):
		is = render.IsBundleDir
	case layout.IsCatalogsRoot(dir):
		is = func(d string) bool { return layout.IsCatalogName(filepath.Base(d)) }
	default:
		if st, err := os.Stat(dir); err == nil && st.IsDir() && !g.changed[s] {
			g.kept[s] = true // a catalog or bundle directory unchanged
		}
		return nil, nil
	}
	subs, err := g.lsTree(ctx, true, s+"/")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range subs {
		if !g.changed[d] && is(filepath.Join(g.top, filepath.FromSlash(d))) {
			g.kept[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}

// close ends the extraction and removes the extracted copy.
func (g *gitCopy) close() {
	if g.stop != nil {
		g.stop()
		_ = g.wait()
	}
	if g.tmp != "" {
		_ = os.RemoveAll(g.tmp)
	}
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
