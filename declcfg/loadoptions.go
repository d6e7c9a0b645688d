package declcfg

// The loader's options: the checks it runs on every object, what it
// passes on besides typed objects, and its limits.

// DefaultMaxFileSize is the largest catalog file the loader reads by
// default.
const DefaultMaxFileSize = 1 << 30

// ObjectCheck inspects a decoded object before it becomes a typed object
// and returns the problems it finds. It runs on the loader's workers. The
// object's tree is valid during the call only: the worker builds the next
// document's tree in the same memory.
type ObjectCheck func(obj *Object) []*Error

// ItemCheck inspects an object once it is typed and returns the problems it
// finds; flagged tells whether the ObjectCheck found problems with it. It
// runs on the loader's workers, for checks that need one object only.
type ItemCheck func(it Item, flagged bool) []*Error

type loadConfig struct {
	concurrency int
	maxFileSize int64
	newCheck    func() (ObjectCheck, QuickCheck)
	newItemChk  func() ItemCheck
	rootName    string
	dropBulk    bool
	lines       func(file int, lines Lines)
	warn        func(Warning)
	docs        *DocumentCache
	noQuick     bool // every document decoded into a tree (WithTrees)
	transient   bool // visit keeps nothing of an item (WithTransientItems)
}

// LoadOption configures LoadFS and WalkFS.
type LoadOption func(*loadConfig)

// WithConcurrency sets how many files are decoded at once (default: the
// number of CPUs).
func WithConcurrency(n int) LoadOption {
	return func(c *loadConfig) {
		if n > 0 {
			c.concurrency = n
		}
	}
}

// WithMaxFileSize refuses files larger than n bytes (0: no limit).
func WithMaxFileSize(n int64) LoadOption {
	return func(c *loadConfig) { c.maxFileSize = n }
}

// WithObjectCheck runs a check on every decoded object. newCheck is called
// once per worker, so a check may keep state that is not safe for
// concurrent use. Objects a check finds fault with are still loaded if they
// can be; a typing error on such an object is not reported a second time.
func WithObjectCheck(newCheck func() ObjectCheck) LoadOption {
	return func(c *loadConfig) {
		c.newCheck = func() (ObjectCheck, QuickCheck) { return newCheck(), nil }
	}
}

// QuickCheck tells, from a bundle's compact JSON (its tree as
// value.AppendCompact writes it: members in the order of their keys, no
// white space), whether the ObjectCheck of the same worker would find
// nothing in the bundle. A bundle it passes is typed straight from its
// bytes (see quickBundle) and not checked further; one it does not is
// decoded into a tree and checked as any other document. It must never
// pass a bundle the ObjectCheck finds fault with. doc is valid only
// during the call.
type QuickCheck func(doc []byte) bool

// WithQuickObjectCheck is WithObjectCheck with a QuickCheck: newChecks is
// called once per worker and returns both, so that they may share what
// the worker's check learns.
func WithQuickObjectCheck(newChecks func() (ObjectCheck, QuickCheck)) LoadOption {
	return func(c *loadConfig) { c.newCheck = newChecks }
}

// WithTrees decodes every document into a tree, never typing a bundle
// straight from its bytes (see quickBundle), which gives the same result
// at a higher cost: for tests that compare the two.
func WithTrees() LoadOption {
	return func(c *loadConfig) { c.noQuick = true }
}

// WithTransientItems tells WalkFS that visit keeps nothing of an item
// once it returns (it encodes or copies what it needs, as render's
// ordered writer does): the memory of one YAML document's property values
// is then reused for the next document's. A visitor that kept a property
// value would find it overwritten.
func WithTransientItems() LoadOption {
	return func(c *loadConfig) { c.transient = true }
}

// WithItemCheck runs a check on every typed object; newCheck is called
// once per worker, as for WithObjectCheck. Problems it returns are at
// the object's file.
func WithItemCheck(newCheck func() ItemCheck) LoadOption {
	return func(c *loadConfig) { c.newItemChk = newCheck }
}

// WithRootName prefixes every file name in positions and errors with name,
// typically the directory the user named, so that messages point at files
// the user can open.
func WithRootName(name string) LoadOption {
	return func(c *loadConfig) { c.rootName = name }
}

// WithoutBulkValues drops the values of olm.bundle.object and
// olm.csv.metadata properties after checking them, for callers (such as
// validation) that need only the catalog's graph.
func WithoutBulkValues() LoadOption {
	return func(c *loadConfig) { c.dropBulk = true }
}

// WithWarnings passes to warn every place where data does not survive
// loading (see Loss): the catalog loads as upstream loads it, but not as
// it is written. warn is called on the loader's workers: it must be safe
// for concurrent use.
func WithWarnings(warn func(Warning)) LoadOption {
	return func(c *loadConfig) { c.warn = warn }
}

// Lines is the objects of one catalog file as JSON lines: each object in
// upstream's normalised form (compact JSON, keys sorted) followed by "\n",
// the way catalogd stores and serves catalogs.
type Lines struct {
	Data    []byte
	Objects []LineInfo // in file order
}

// LineInfo names the object of a line, as its blob declares it, and where
// its line ends in Lines.Data.
type LineInfo struct {
	Schema, Package, Name string
	End                   int
}

// WithLines passes every object the loader types, whatever its schema, to
// collect as JSON lines. collect is called once for every catalog file
// (index in walk order) with the lines of its objects in file order (none
// for a file that holds none or cannot be read), on the loader's workers:
// it must be safe for concurrent use.
func WithLines(collect func(file int, lines Lines)) LoadOption {
	return func(c *loadConfig) { c.lines = collect }
}
