package baseline

import (
	"iter"
	"maps"
	"path/filepath"
	"slices"
	"sync"

	"github.com/fbcat/opm/lint/finding"
)

// Memo keeps, in lint's run over a change, the bundle directories read
// (B is what lint reads of one) and the findings in each, and the
// findings of each catalog directory linted on its own, so that the run
// over the baseline reuses those the change left alone: their findings
// are by definition the same. It is safe for use by several goroutines.
type Memo[B any] struct {
	mu       sync.Mutex
	bundles  map[string]B
	found    map[string][]finding.Finding
	catalogs map[string][]finding.Finding
	// inOperator are the findings about each bundle directory that were
	// made knowing its operator's other bundles (the hosted pipeline's
	// checks of a bundle): a bundle the change left alone keeps them.
	inOperator map[string][]finding.Finding
}

// NewMemo makes an empty memo.
func NewMemo[B any]() *Memo[B] {
	return &Memo[B]{bundles: map[string]B{}, found: map[string][]finding.Finding{}, catalogs: map[string][]finding.Finding{},
		inOperator: map[string][]finding.Finding{}}
}

// KeepBundle records the bundle directory dir, read.
func (m *Memo[B]) KeepBundle(dir string, b B) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.bundles[filepath.Clean(dir)] = b
}

// RecordBundle records the findings in the bundle directory dir.
func (m *Memo[B]) RecordBundle(dir string, fs []finding.Finding) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.found[filepath.Clean(dir)] = fs
}

// RecordInOperator records the findings about the bundle directory dir
// made knowing the other bundles of its operator directory.
func (m *Memo[B]) RecordInOperator(dir string, fs []finding.Finding) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inOperator[filepath.Clean(dir)] = fs
}

// InOperator are the findings RecordInOperator recorded about the bundle
// directory dir.
func (m *Memo[B]) InOperator(dir string) ([]finding.Finding, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fs, ok := m.inOperator[filepath.Clean(dir)]
	return fs, ok
}

// RecordCatalog records the findings in the catalog directory name,
// linted on its own (not one an operator directory maps).
func (m *Memo[B]) RecordCatalog(name string, fs []finding.Finding) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.catalogs[filepath.Clean(name)] = slices.Clone(fs)
}

// Bundle is the bundle directory dir as recorded.
func (m *Memo[B]) Bundle(dir string) (b B, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok = m.bundles[filepath.Clean(dir)]
	return b, ok
}

// BundleFindings are the findings recorded in the bundle directory dir.
func (m *Memo[B]) BundleFindings(dir string) ([]finding.Finding, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fs, ok := m.found[filepath.Clean(dir)]
	return fs, ok
}

// Catalog is a copy of the findings recorded in the catalog directory
// name.
func (m *Memo[B]) Catalog(name string) ([]finding.Finding, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fs, ok := m.catalogs[filepath.Clean(name)]
	return slices.Clone(fs), ok
}

// BundleDirsIn lists, sorted, the base names of the bundle directories
// recorded right below dir.
func (m *Memo[B]) BundleDirsIn(dir string) []string {
	return m.namesIn(dir, func() iter.Seq[string] { return maps.Keys(m.bundles) })
}

// CatalogsIn lists, sorted, the base names of the catalog directories
// recorded right below dir.
func (m *Memo[B]) CatalogsIn(dir string) []string {
	return m.namesIn(dir, func() iter.Seq[string] { return maps.Keys(m.catalogs) })
}

// namesIn lists, sorted, the base names of the recorded paths right
// below dir.
func (m *Memo[B]) namesIn(dir string, recorded func() iter.Seq[string]) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var names []string
	for p := range recorded() {
		if filepath.Dir(p) == filepath.Clean(dir) {
			names = append(names, filepath.Base(p))
		}
	}
	slices.Sort(names)
	return names
}
