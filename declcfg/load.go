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
	"runtime/debug"
	"sync"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/internal/residency/hugebuf"
)

// Seq is an object's place in load order: the index of its file in walk
// order and its index among the objects of that file.
type Seq struct {
	File, Index int
}

// Compare orders sequence numbers.
func (s Seq) Compare(o Seq) int {
	switch {
	case s.File != o.File:
		return cmpInt(s.File, o.File)
	default:
		return cmpInt(s.Index, o.Index)
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Item is one typed object of a catalog; exactly one of its pointers is
// set.
type Item struct {
	Seq         Seq
	Package     *Package
	Channel     *Channel
	Bundle      *Bundle
	Deprecation *Deprecation
	Meta        *Meta
}

// WalkFS loads every catalog file under fsys (see catalogFiles for which
// files count) with a bounded pool of workers (internal/parallel) and
// passes each typed object to visit, on the worker that decoded it: visit
// must be safe for concurrent use, but is called for the objects of one
// file one after another, in file order. Decoding streams: only one
// document's tree is in memory per worker at a time.
//
// Problems with files and documents do not stop the walk; they are
// returned, sorted, as an ErrorList. The error result is for failures that
// end the walk: an unreadable root, a cancelled context, or an error
// returned by visit (that of the first file, largest first, whose visit
// failed).
func WalkFS(ctx context.Context, fsys fs.FS, visit func(Item) error, opts ...LoadOption) (ErrorList, error) {
	if fsys == nil {
		return nil, errors.New("no catalog file system given")
	}
	c := loadConfig{concurrency: runtime.GOMAXPROCS(0), maxFileSize: DefaultMaxFileSize}
	for _, o := range opts {
		o(&c)
	}
	files, problems, err := catalogFiles(fsys, c.maxFileSize)
	if err != nil {
		return nil, fmt.Errorf("reading catalog directory: %w", err)
	}
	for _, e := range problems {
		e.File = joinRoot(c.rootName, e.File)
	}

	// Largest files first, so that no big file is left to the end.
	order := largestFirst(fsys, files)
	perFile := make([]ErrorList, len(files))
	var mu sync.Mutex
	var workers []*loadWorker
	hugePages := hugebuf.Usable() // the kernel's setting, read once
	newWorker := func() *loadWorker {
		wk := newLoadWorker(&c, hugePages)
		mu.Lock()
		workers = append(workers, wk)
		mu.Unlock()
		return wk
	}
	err = parallel.DoWith(ctx, len(order), c.concurrency, newWorker, func(wk *loadWorker, k int) error {
		i := order[k]
		errs, err := walkFile(fsys, files[i], i, &c, wk, visit)
		perFile[i] = errs
		return err
	})
	for _, wk := range workers {
		wk.bufs.free()
	}
	if ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err())) {
		err = context.Cause(ctx) // what ended ctx, as its canceller said it
	}
	if err != nil {
		return nil, err
	}
	for _, errs := range perFile {
		problems = append(problems, errs...)
	}
	problems.Sort()
	return problems, nil
}

// LoadFS loads a whole catalog into memory (see WalkFS for how). Objects
// appear in walk order, file by file, whatever the scheduling.
//
// LoadFS reads everything it can. If any file or document is bad, it
// returns the catalog loaded from the rest together with an ErrorList
// naming every problem, sorted by file and line.
func LoadFS(ctx context.Context, fsys fs.FS, opts ...LoadOption) (*DeclarativeConfig, error) {
	var mu sync.Mutex
	perFile := map[int]*DeclarativeConfig{}
	problems, err := WalkFS(ctx, fsys, func(it Item) error {
		mu.Lock()
		cfg := perFile[it.Seq.File]
		if cfg == nil {
			cfg = &DeclarativeConfig{}
			perFile[it.Seq.File] = cfg
		}
		mu.Unlock()
		// Only the worker decoding this file appends to its config.
		cfg.Add(it)
		return nil
	}, append(opts, keepItems)...)
	if err != nil {
		return nil, err
	}
	cfg := &DeclarativeConfig{}
	for i := 0; len(perFile) > 0; i++ {
		if part, ok := perFile[i]; ok {
			cfg.Append(part)
			delete(perFile, i)
		}
	}
	if len(problems) > 0 {
		return cfg, problems
	}
	return cfg, nil
}

// keepItems undoes WithTransientItems for LoadFS, which keeps them all.
func keepItems(c *loadConfig) { c.transient = false }

// Add appends the object an item holds.
func (cfg *DeclarativeConfig) Add(it Item) {
	switch {
	case it.Package != nil:
		cfg.Packages = append(cfg.Packages, *it.Package)
	case it.Channel != nil:
		cfg.Channels = append(cfg.Channels, *it.Channel)
	case it.Bundle != nil:
		cfg.Bundles = append(cfg.Bundles, *it.Bundle)
	case it.Deprecation != nil:
		cfg.Deprecations = append(cfg.Deprecations, *it.Deprecation)
	case it.Meta != nil:
		cfg.Others = append(cfg.Others, *it.Meta)
	}
}

// Append appends every object of other.
func (cfg *DeclarativeConfig) Append(other *DeclarativeConfig) {
	cfg.Packages = append(cfg.Packages, other.Packages...)
	cfg.Channels = append(cfg.Channels, other.Channels...)
	cfg.Bundles = append(cfg.Bundles, other.Bundles...)
	cfg.Deprecations = append(cfg.Deprecations, other.Deprecations...)
	cfg.Others = append(cfg.Others, other.Others...)
}

func joinRoot(root, file string) string {
	switch {
	case root == "":
		return file
	case file == "":
		return root
	}
	return path.Join(root, file)
}

// loadWorker is what one of WalkFS's workers keeps from file to file.
type loadWorker struct {
	check     ObjectCheck
	itemCheck ItemCheck
	bufs      *fileBuffers
	// quick types bundles straight from JSON bytes; nil when an object
	// check needs every document's tree.
	quick *quickDecoder
	// yaml is how YAML documents are decoded: their properties' values
	// compacted where no object check reads them, their collections in
	// the worker's arena (see yamlDecoding).
	yaml yamlDecoding
}

func newLoadWorker(c *loadConfig, hugePages bool) *loadWorker {
	wk := &loadWorker{bufs: &fileBuffers{largeOK: hugePages}}
	var quick QuickCheck
	if c.newCheck != nil {
		wk.check, quick = c.newCheck()
	}
	if c.newItemChk != nil {
		wk.itemCheck = c.newItemChk()
	}
	if (wk.check == nil || quick != nil) && !c.noQuick {
		wk.quick = &quickDecoder{dropBulk: c.dropBulk, check: quick, withDoc: quick != nil || c.lines != nil}
	}
	wk.yaml.compact = wk.check == nil && !c.noQuick
	wk.yaml.arena = &fbcyaml.Arena{Values: wk.yaml.compact && c.transient && c.docs == nil}
	return wk
}

// walkFile reads, decodes and types every object of one file and passes
// each to visit. The file is read into wk.bufs (unless it is mapped or
// borrowed), which the next file may reuse.
func walkFile(fsys fs.FS, name string, fileIndex int, c *loadConfig, wk *loadWorker, visit func(Item) error) (errs ErrorList, err error) {
	w := fileWalk{c: c, check: wk.check, itemCheck: wk.itemCheck, visit: visit, name: name, display: joinRoot(c.rootName, name), fileIndex: fileIndex}
	if c.lines != nil {
		defer func() { c.lines(fileIndex, w.lines) }()
	}
	data, mapped, err := readFile(fsys, name, c.maxFileSize, wk.bufs)
	if mapped != nil {
		defer mapped.close()
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if w.faulted(recover(), data) {
				errs, err = w.errs, w.visitErr
			}
		}()
	}
	if err != nil {
		w.report(&Error{Message: err.Error()})
		return w.errs, nil
	}
	w.data, w.dec = data, &decoder{dropBulk: c.dropBulk}
	var cache *DocumentCache
	if c.docs != nil && c.lines == nil {
		// Warnings are counted, so that a document that had any is not
		// cached.
		cc := *c
		if c.warn != nil {
			cc.warn = func(wn Warning) { w.warned++; c.warn(wn) }
		}
		w.c, cache = &cc, c.docs
	}
	decodeFile(data, cache, wk.quick, wk.yaml, func(doc document) {
		w.document(doc)
		mapped.consumed(doc.Src.End)
	})
	if c.warn != nil && w.visitErr == nil {
		if e := bomLoss(data, w.docs); e != nil {
			e.File = w.display
			c.warn(Warning{Loss: LossBOM, At: e})
		}
	}
	return w.errs, w.visitErr
}

// fileWalk is walkFile's state over one file.
type fileWalk struct {
	c         *loadConfig
	check     ObjectCheck
	itemCheck ItemCheck
	visit     func(Item) error
	name      string // the file's path in the file system
	display   string // the file's name in problems, under the root name
	fileIndex int
	data      []byte // the file's bytes
	dec       *decoder

	errs     ErrorList // the file's problems
	lines    Lines     // the objects as JSON lines, with WithLines
	index    int       // the index of the next object passed to visit
	docs     int       // the documents decoded
	visitErr error     // what visit returned; the objects after it are skipped
	warned   int       // the warnings given, when counted (see walkFile)
}

// report records a problem of the file.
func (w *fileWalk) report(e *Error) {
	e.File = w.display
	w.errs = append(w.errs, e)
}

// document checks and types one decoded document and passes the object
// to visit, unless it is unusable.
func (w *fileWalk) document(doc document) {
	w.docs++
	if w.visitErr != nil {
		return
	}
	if doc.Err != nil {
		w.report(doc.Err)
		return
	}
	if doc.cached != nil {
		w.pass(Item{Bundle: doc.cached.at(w.display, withPath(doc.Src, w.name))})
		return
	}
	if doc.quick != nil {
		w.passQuick(&doc)
		return
	}
	errs, warned := len(w.errs), w.warned
	merged := w.c.warnDuplicates(&doc, w.display)
	obj, merr := metaOf(&doc.Value)
	obj.Pos = Pos{File: w.display, Line: int(doc.Line)}
	if merr != nil {
		// No subject: the object is unusable, which callers can tell
		// by the empty Schema.
		w.report(merr)
		return
	}
	checked := 0
	if !merged {
		checked = w.checkObject(&obj)
	}
	it, ok := w.typeObject(&obj, doc.Line, checked, merged)
	if !ok {
		return
	}
	if w.c.warn != nil {
		roundedNumbers(&obj, obj.Value, w.c.warn)
		if wn := noPackageWarning(&obj, it); wn != nil {
			w.c.warn(*wn)
		}
	}
	if it.Bundle != nil {
		it.Bundle.Src = withPath(doc.Src, w.name)
	}
	if w.itemCheck != nil && !merged {
		for _, e := range w.itemCheck(it, checked > 0) {
			w.report(e)
		}
	}
	if w.c.lines != nil {
		w.addLine(&obj)
	}
	if w.c.docs != nil && it.Bundle != nil && doc.key.n > 0 && len(w.errs) == errs && w.warned == warned && len(doc.Dups) == 0 {
		w.c.docs.put(doc.key, it.Bundle, doc.Src.Line)
	}
	w.pass(it)
}

// passQuick passes a bundle typed straight from the bytes (see
// quickBundle), with what document gives a bundle it decoded: its file,
// its source, the warning for a missing package, the item check and its
// JSON line (the bundle's compact JSON, doc.compact).
func (w *fileWalk) passQuick(doc *document) {
	b := doc.quick
	b.Pos.File = w.display
	b.Src = withPath(doc.Src, w.name)
	it := Item{Bundle: b}
	if w.c.warn != nil {
		obj := Object{Pos: b.Pos, Schema: b.Schema, Package: b.Package, Name: b.Name}
		if wn := noPackageWarning(&obj, it); wn != nil {
			w.c.warn(*wn)
		}
	}
	if w.itemCheck != nil {
		for _, e := range w.itemCheck(it, false) {
			w.report(e)
		}
	}
	if w.c.lines != nil {
		w.growLines()
		w.lines.Data = append(append(w.lines.Data, doc.compact...), '\n')
		w.endLine(b.Schema, b.Package, b.Name)
	}
	w.pass(it)
}

// pass passes the next object of the file to visit.
func (w *fileWalk) pass(it Item) {
	it.Seq = Seq{File: w.fileIndex, Index: w.index}
	w.index++
	w.visitErr = w.visit(it)
}

// withPath is src in the file named name.
func withPath(src Source, name string) Source {
	src.Path = name
	return src
}

// checkObject runs the object check on obj, reports what it finds and
// returns how many problems that was.
func (w *fileWalk) checkObject(obj *Object) int {
	checked := 0
	if w.check != nil {
		for _, e := range w.check(obj) {
			w.report(e)
			checked++
		}
	}
	return checked
}

// typeObject decodes obj into the type of its schema. ok is false for an
// object that cannot be used: one that does not decode (reported only if
// the object check found nothing, as its problems say more), or a bundle
// with bad olm.bundle.object data, which upstream refuses. A merged object
// (two run together) gets no unknown-field warnings: its unknown fields
// are the other object's.
func (w *fileWalk) typeObject(obj *Object, line int32, checked int, merged bool) (it Item, ok bool) {
	w.dec.unknown = w.c.unknownFieldWarner(obj, merged)
	it, terr := typed(obj, w.dec)
	var objErrs []*Error
	if obj.Schema == SchemaBundle {
		// Checked whatever else is wrong with the bundle: a schema
		// check cannot tell bad base64 data.
		objErrs = bundleObjectErrors(obj, checked == 0)
		for _, e := range objErrs {
			w.report(e)
		}
	}
	if terr != nil {
		if checked == 0 {
			if terr.Line == 0 {
				terr.Line = int(line)
			}
			w.report(terr)
		}
		return it, false
	}
	return it, len(objErrs) == 0
}

// addLine appends obj to the file's JSON lines.
func (w *fileWalk) addLine(obj *Object) {
	w.growLines()
	w.lines.Data = append(value.AppendCompact(w.lines.Data, obj.Value), '\n')
	w.endLine(obj.Schema, obj.Package, obj.Name)
}

// growLines makes room for the file's JSON lines.
func (w *fileWalk) growLines() {
	if w.lines.Data == nil {
		w.lines.Data = make([]byte, 0, len(w.data)+len(w.data)/8)
	}
}

// endLine names the object whose line was just appended.
func (w *fileWalk) endLine(schema, pkg, name string) {
	w.lines.Objects = append(w.lines.Objects, LineInfo{schema, pkg, name, len(w.lines.Data)})
}

// warnDuplicates warns of the keys doc repeats, and reports whether it is
// two objects run together (a repeated "schema"), which make one that is
// neither: what checks and typing would say of it are consequences of the
// warning.
func (c *loadConfig) warnDuplicates(doc *document, file string) (merged bool) {
	merged = separatorMissing(doc.Dups)
	if c.warn != nil {
		for _, w := range duplicateKeyWarnings(doc.Dups, merged, doc.Src.YAML) {
			w.At.File = file
			c.warn(w)
		}
	}
	return merged
}

// unknownFieldWarner is what typing obj calls with each unknown field: a
// warning, if warnings are asked for and obj is not two objects run
// together (whose unknown fields are those of the other object).
func (c *loadConfig) unknownFieldWarner(obj *Object, merged bool) func(path string, v *value.Value) {
	if c.warn == nil || merged {
		return nil
	}
	return func(path string, v *value.Value) { c.warn(unknownFieldWarning(obj, path, v)) }
}

// fileRole is what the loader reads a file for, which decides the advice
// its errors give.
type fileRole struct {
	notRegular string // what to do with a file that is not a regular file
	tooLarge   string // what to do with a file over the limit
}

var (
	catalogFile = fileRole{
		notRegular: "remove it, or list it in " + IndexIgnoreFile,
		tooLarge:   "if it is not catalog data, list it in " + IndexIgnoreFile,
	}
	ignoreFile = fileRole{
		notRegular: "make " + IndexIgnoreFile + " a regular file",
		tooLarge:   "an " + IndexIgnoreFile + " file holds patterns, one a line: shorten it",
	}
)

// openRegular opens a regular file (links are followed) of at most limit
// bytes (0: no limit). It looks at what name is before opening it, since
// opening a named pipe waits for a writer, and refuses anything else.
func openRegular(fsys fs.FS, name string, limit int64, role fileRole) (fs.File, fs.FileInfo, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open: %v", fserr.Cause(err))
	}
	if err := checkRegular(st, limit, role); err != nil {
		return nil, nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open: %v", fserr.Cause(err))
	}
	// Check again what was opened, in case the file was just replaced.
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("cannot stat: %v", fserr.Cause(err))
	}
	if err := checkRegular(st, limit, role); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

func checkRegular(st fs.FileInfo, limit int64, role fileRole) error {
	mode := st.Mode()
	switch {
	case mode.IsDir():
		return errors.New("this is a link to a directory; opm does not follow directory links (replace the link with a copy, or list it in " + IndexIgnoreFile + ")")
	case !mode.IsRegular():
		return fmt.Errorf("this is %s, not a regular file; opm reads only regular files and did not open it: %s", describeType(mode), role.notRegular)
	case limit > 0 && st.Size() > limit:
		return fmt.Errorf("file is %d bytes, larger than the %d-byte limit for a catalog file; %s", st.Size(), limit, role.tooLarge)
	}
	return nil
}

// describeType names the type of a file that is neither a regular file
// nor a directory.
func describeType(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return fmt.Sprintf("a file of type %q", mode.Type().String())
}

func limitReader(r io.Reader, limit int64) io.Reader {
	if limit > 0 {
		return io.LimitReader(r, limit+1)
	}
	return r
}

// readAll appends what is left of r to buf, whose capacity is the size
// the file claims to be plus one byte (to notice a file that grew), so
// that the common case reads once into an exactly sized buffer. r is
// limited to limit+1 bytes.
func readAll(r io.Reader, buf []byte, limit int64, role fileRole) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // the file grew: make room
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read: %v", fserr.Cause(err))
		}
	}
	if limit > 0 && int64(len(buf)) > limit {
		return nil, fmt.Errorf("file is larger than the %d-byte limit for a catalog file; %s", limit, role.tooLarge)
	}
	return buf, nil
}

// binarySniffLen is how much of a file looksBinary looks at.
const binarySniffLen = 8000

var sniffBufs = sync.Pool{New: func() any { return new([binarySniffLen]byte) }}

// looksBinary reports whether data has a NUL byte near its start, which
// neither JSON nor YAML text can contain.
func looksBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniffLen)], 0) >= 0
}
