package lint

import (
	"iter"
	"maps"
	"path/filepath"
	"slices"
	"sync"
)

// memo keeps, in a run over a change, the bundle directories read and
// the findings of the bundle rules in each, so that the run over the
// baseline reuses those of directories the change left alone: their
// findings are by definition the same.
type memo struct {
	mu      sync.Mutex
	bundles map[string]*bundle
	found   map[string][]Finding
	// catalogs are the findings of each catalog directory linted on its
	// own (not one an operator directory maps), by its name.
	catalogs map[string][]Finding
	// unchanged reports whether the work tree has a directory as the
	// baseline has it (set for the run over the baseline).
	unchanged func(dir string) bool
}

func newMemo() *memo {
	return &memo{bundles: map[string]*bundle{}, found: map[string][]Finding{}, catalogs: map[string][]Finding{}}
}

// keep records a bundle directory read.
func (m *memo) keep(b *bundle) {
	if m == nil || b.dir == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.bundles[filepath.Clean(b.dir)] = b
}

// record records the findings of the bundle rules in a bundle directory.
func (m *memo) record(b *bundle, fs []Finding) {
	if m == nil || b.dir == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.found[filepath.Clean(b.dir)] = fs
}

// bundle is the bundle directory dir as the run over the change read it,
// when the change left it alone; nil otherwise.
func (m *memo) bundle(dir string) *bundle {
	if m == nil || m.unchanged == nil || !m.unchanged(dir) {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bundles[filepath.Clean(dir)]
}

// findings are the findings of the bundle rules in b, when the change
// left its directory alone.
func (m *memo) findings(b *bundle) ([]Finding, bool) {
	if m == nil || m.unchanged == nil || b.dir == "" || !m.unchanged(b.dir) {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	fs, ok := m.found[filepath.Clean(b.dir)]
	return fs, ok
}

// dirsIn lists the names of the bundle directories of dir the change
// left alone.
func (m *memo) dirsIn(dir string) []string {
	return m.unchangedIn(dir, func() iter.Seq[string] { return maps.Keys(m.bundles) })
}

// unchangedIn lists, sorted, the base names of the recorded paths right
// below dir that the change left alone.
func (m *memo) unchangedIn(dir string, recorded func() iter.Seq[string]) []string {
	if m == nil || m.unchanged == nil {
		return nil
	}
	m.mu.Lock()
	var names []string
	for p := range recorded() {
		if filepath.Dir(p) == filepath.Clean(dir) {
			names = append(names, filepath.Base(p))
		}
	}
	m.mu.Unlock()
	var out []string
	for _, n := range names {
		if m.unchanged(filepath.Join(dir, n)) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// recordCatalog records the findings of a catalog directory linted on
// its own.
func (m *memo) recordCatalog(name string, fs []Finding) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.catalogs[filepath.Clean(name)] = slices.Clone(fs)
}

// catalog is what the run over the change found in the catalog directory
// name, but for stranded-upgrade (which compares with the baseline), when
// the change left it alone.
func (m *memo) catalog(name string) ([]Finding, bool) {
	if m == nil || m.unchanged == nil || !m.unchanged(name) {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	fs, ok := m.catalogs[filepath.Clean(name)]
	if !ok {
		return nil, false
	}
	return slices.DeleteFunc(slices.Clone(fs), func(f Finding) bool { return f.Rule == ruleStranded }), true
}

// catalogsIn lists the names of the catalogs (v4.N) of the catalogs
// directory dir the change left alone.
func (m *memo) catalogsIn(dir string) []string {
	return m.unchangedIn(dir, func() iter.Seq[string] { return maps.Keys(m.catalogs) })
}
