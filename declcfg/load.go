package declcfg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"sync"
)

// DefaultMaxFileSize is the largest catalog file LoadFS reads by default.
const DefaultMaxFileSize = 1 << 30

// ObjectCheck inspects a decoded object before it becomes a typed object
// and returns the problems it finds. It runs on the loader's workers.
type ObjectCheck func(obj *Object) []*Error

type loadConfig struct {
	concurrency int
	maxFileSize int64
	newCheck    func() ObjectCheck
	rootName    string
	dropBulk    bool
}

// LoadOption configures LoadFS.
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

// WithMaxFileSize refuses files larger than n bytes.
func WithMaxFileSize(n int64) LoadOption {
	return func(c *loadConfig) { c.maxFileSize = n }
}

// WithObjectCheck runs a check on every decoded object. newCheck is called
// once per worker, so a check may keep state that is not safe for
// concurrent use. Objects a check finds fault with are still loaded if they
// can be; a typing error on such an object is not reported a second time.
func WithObjectCheck(newCheck func() ObjectCheck) LoadOption {
	return func(c *loadConfig) { c.newCheck = newCheck }
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

// fileResult is what a worker makes of one file.
type fileResult struct {
	cfg  DeclarativeConfig
	errs ErrorList
}

// LoadFS loads every catalog file under fsys (see catalogFiles for which
// files count) with a bounded pool of workers. The result does not depend
// on scheduling: objects appear in walk order, file by file.
//
// LoadFS reads everything it can. If any file or document is bad, it
// returns the catalog loaded from the rest together with an ErrorList
// naming every problem, sorted by file and line.
func LoadFS(ctx context.Context, fsys fs.FS, opts ...LoadOption) (*DeclarativeConfig, error) {
	if fsys == nil {
		return nil, errors.New("no catalog file system given")
	}
	c := loadConfig{concurrency: runtime.GOMAXPROCS(0), maxFileSize: DefaultMaxFileSize}
	for _, o := range opts {
		o(&c)
	}
	files, problems, err := catalogFiles(fsys)
	if err != nil {
		return nil, fmt.Errorf("reading catalog directory: %w", err)
	}

	results := make([]fileResult, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(c.concurrency, max(len(files), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var check ObjectCheck
			if c.newCheck != nil {
				check = c.newCheck()
			}
			for i := range next {
				results[i] = loadFile(fsys, files[i], &c, check)
			}
		}()
	}
feed:
	for i := range files {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	cfg := &DeclarativeConfig{}
	for i := range results {
		r := &results[i]
		cfg.Packages = append(cfg.Packages, r.cfg.Packages...)
		cfg.Channels = append(cfg.Channels, r.cfg.Channels...)
		cfg.Bundles = append(cfg.Bundles, r.cfg.Bundles...)
		cfg.Deprecations = append(cfg.Deprecations, r.cfg.Deprecations...)
		cfg.Others = append(cfg.Others, r.cfg.Others...)
		problems = append(problems, r.errs...)
		results[i] = fileResult{}
	}
	if c.rootName != "" {
		cfg.prefixFiles(c.rootName)
		for _, e := range problems {
			e.File = joinRoot(c.rootName, e.File)
		}
	}
	if len(problems) > 0 {
		problems.Sort()
		return cfg, problems
	}
	return cfg, nil
}

func joinRoot(root, file string) string {
	if file == "" {
		return root
	}
	return path.Join(root, file)
}

func (cfg *DeclarativeConfig) prefixFiles(root string) {
	for i := range cfg.Packages {
		cfg.Packages[i].Pos.File = joinRoot(root, cfg.Packages[i].Pos.File)
	}
	for i := range cfg.Channels {
		cfg.Channels[i].Pos.File = joinRoot(root, cfg.Channels[i].Pos.File)
	}
	for i := range cfg.Bundles {
		cfg.Bundles[i].Pos.File = joinRoot(root, cfg.Bundles[i].Pos.File)
	}
	for i := range cfg.Deprecations {
		cfg.Deprecations[i].Pos.File = joinRoot(root, cfg.Deprecations[i].Pos.File)
	}
	for i := range cfg.Others {
		cfg.Others[i].Pos.File = joinRoot(root, cfg.Others[i].Pos.File)
	}
}

// loadFile reads, decodes and types every object of one file.
func loadFile(fsys fs.FS, name string, c *loadConfig, check ObjectCheck) fileResult {
	var r fileResult
	fail := func(format string, args ...any) fileResult {
		r.errs = append(r.errs, &Error{File: name, Message: fmt.Sprintf(format, args...)})
		return r
	}
	data, err := readFile(fsys, name, c.maxFileSize)
	if err != nil {
		return fail("%v", err)
	}
	if looksBinary(data) {
		return fail("this is a binary file, not catalog data (JSON or YAML); list it in %s if it belongs in the directory", IndexIgnoreFile)
	}
	for _, doc := range decodeFile(data) {
		if doc.Err != nil {
			doc.Err.File = name
			r.errs = append(r.errs, doc.Err)
			continue
		}
		obj, merr := metaOf(&doc.Value)
		obj.Pos = Pos{File: name, Line: int(doc.Line)}
		if merr != nil {
			merr.File = name
			merr.setSubject(&obj)
			r.errs = append(r.errs, merr)
			continue
		}
		checked := 0
		if check != nil {
			for _, e := range check(&obj) {
				e.File = name
				r.errs = append(r.errs, e)
				checked++
			}
		}
		if err := addObject(&r.cfg, &obj); err != nil && checked == 0 {
			err.File = name
			if err.Line == 0 {
				err.Line = int(doc.Line)
			}
			r.errs = append(r.errs, err)
		}
	}
	if c.dropBulk {
		for i := range r.cfg.Bundles {
			for j := range r.cfg.Bundles[i].Properties {
				if p := &r.cfg.Bundles[i].Properties[j]; p.Type == PropertyBundleObject || p.Type == PropertyCSVMetadata {
					p.Value = nil
				}
			}
		}
	}
	return r
}

// readFile reads a catalog file, refusing directories reached through
// links and files over the size limit.
func readFile(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("cannot open: %v", unwrapPathError(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot stat: %v", unwrapPathError(err))
	}
	if st.IsDir() {
		return nil, fmt.Errorf("this is a link to a directory; opm does not follow directory links (replace the link with a copy, or list it in %s)", IndexIgnoreFile)
	}
	if !st.Mode().IsRegular() && st.Mode()&fs.ModeType != 0 {
		return nil, fmt.Errorf("not a regular file (%v); list it in %s", st.Mode().Type(), IndexIgnoreFile)
	}
	if limit > 0 && st.Size() > limit {
		return nil, fmt.Errorf("file is %d bytes, larger than the %d-byte limit for a catalog file; if it is not catalog data, list it in %s", st.Size(), limit, IndexIgnoreFile)
	}
	var buf bytes.Buffer
	if st.Size() > 0 {
		buf.Grow(int(st.Size()) + 1)
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	if _, err := io.Copy(&buf, r); err != nil {
		return nil, fmt.Errorf("cannot read: %v", unwrapPathError(err))
	}
	if limit > 0 && int64(buf.Len()) > limit {
		return nil, fmt.Errorf("file is larger than the %d-byte limit for a catalog file; if it is not catalog data, list it in %s", limit, IndexIgnoreFile)
	}
	return buf.Bytes(), nil
}

// looksBinary reports whether data has a NUL byte near its start, which
// neither JSON nor YAML text can contain.
func looksBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}
