package lint

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/fbcat/opm/lint/baseline"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/render"
)

// view is how a run reads the paths. The run over the change reads the
// work tree and, when there is a baseline, records in the memo what it
// read and found in each bundle directory and catalog. The run over the
// baseline reads where the baseline holds each path, and takes from the
// memo what the change left alone (which a git ref's copy leaves out).
// Every path the walk meets goes through these methods, and nothing else
// of the walk knows which run it is in.
type view struct {
	// memo is what the run over the change records; nil without a
	// baseline.
	memo *baseline.Memo[*bundle]
	// baseline is set in the run over the baseline: what it reads.
	baseline *baseline.Baseline
}

// real is where the path p is read from.
func (v *view) real(p string) string {
	if v.baseline == nil {
		return p
	}
	return v.baseline.Real(p)
}

// recording reports whether this is the run over a change that has a
// baseline.
func (v *view) recording() bool { return v.memo != nil && v.baseline == nil }

// reuses reports whether this is the run over the baseline and the
// change left the bundle directory or catalog dir alone.
func (v *view) reuses(dir string) bool {
	return v.baseline != nil && v.baseline.Unchanged(dir)
}

// readBundleDir reads the bundle directory dir, its positions naming dir.
func (v *view) readBundleDir(dir string) (*bundle, error) {
	if v.reuses(dir) {
		if b, ok := v.memo.Bundle(dir); ok {
			return b, nil
		}
	}
	b, err := readBundleFS(os.DirFS(v.real(dir)), dir)
	if err != nil {
		return nil, err
	}
	if v.recording() {
		v.memo.KeepBundle(dir, b)
	}
	return b, nil
}

// bundleFindings are the findings check makes of the bundle b.
func (v *view) bundleFindings(b *bundle, check func(*bundle) []finding.Finding) []finding.Finding {
	if b.dir != "" && v.reuses(b.dir) {
		if fs, ok := v.memo.BundleFindings(b.dir); ok {
			return fs
		}
	}
	fs := check(b)
	if b.dir != "" && v.recording() {
		v.memo.RecordBundle(b.dir, fs)
	}
	return fs
}

// inOperatorFindings are the findings check makes of the bundle
// directory b knowing its operator's other bundles: in the run over the
// baseline, those the change made of it when the change left it alone,
// so that only the bundles a change touches have new findings of the
// pipeline's checks (which check the bundle a pull request brings).
func (v *view) inOperatorFindings(b *bundle, check func(*bundle) []finding.Finding) []finding.Finding {
	if v.reuses(b.dir) {
		if fs, ok := v.memo.InOperator(b.dir); ok {
			return fs
		}
	}
	fs := check(b)
	if v.recording() {
		v.memo.RecordInOperator(b.dir, fs)
	}
	return fs
}

// catalogFindings are the findings lint makes of the catalog directory
// name, linted on its own. What the run over the baseline reuses of a
// catalog the change left alone leaves out stranded-upgrade's findings,
// which compare the catalog with the baseline.
func (v *view) catalogFindings(name string, lint func() ([]finding.Finding, error)) ([]finding.Finding, error) {
	if v.reuses(name) {
		if fs, ok := v.memo.Catalog(name); ok {
			return slices.DeleteFunc(fs, func(f finding.Finding) bool { return f.Rule == ruleStranded }), nil
		}
	}
	fs, err := lint()
	if err == nil && v.recording() {
		v.memo.RecordCatalog(name, fs)
	}
	return fs, err
}

// bundleDirsIn lists the bundle directories of an operator directory,
// sorted.
func (v *view) bundleDirsIn(dir string) ([]string, error) {
	var kept []string
	if v.baseline != nil {
		kept = v.unchangedIn(dir, v.memo.BundleDirsIn(dir))
	}
	names, err := v.subdirs(dir, kept)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range names {
		if d := filepath.Join(dir, name); slices.Contains(kept, name) || render.IsBundleDir(v.real(d)) {
			out = append(out, d)
		}
	}
	return out, nil
}

// catalogsIn lists the names of the directories of a catalogs directory,
// sorted.
func (v *view) catalogsIn(dir string) ([]string, error) {
	var kept []string
	if v.baseline != nil {
		kept = v.unchangedIn(dir, v.memo.CatalogsIn(dir))
	}
	return v.subdirs(dir, kept)
}

// unchangedIn keeps the names of dir that the change left alone.
func (v *view) unchangedIn(dir string, names []string) []string {
	return slices.DeleteFunc(names, func(n string) bool { return !v.reuses(filepath.Join(dir, n)) })
}

// subdirs lists, sorted, the names of the directories in dir (where the
// view reads it) and kept: those the run over the baseline reuses, which
// a git ref's copy leaves out.
func (v *view) subdirs(dir string, kept []string) ([]string, error) {
	entries, err := os.ReadDir(v.real(dir))
	if err != nil {
		return nil, err
	}
	names := kept
	for _, e := range entries {
		if e.IsDir() && !slices.Contains(kept, e.Name()) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}
