package serve

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/fbcat/opm/declcfg"
)

// jsonLines is the catalog as the HTTP API serves it: every object as one
// line of JSON (upstream's normalised blob), in load order, kept in a
// spool, with indexes for /api/v1/metas.
type jsonLines struct {
	body     *spool
	ends     []int64 // end offset of each object's line in body
	bySchema map[string][]int
	byPkg    map[string][]int
	byName   map[string][]int
	modified time.Time

	gzipOnce sync.Once
	gzipped  *spool // body compressed, made on first demand
	gzipErr  error
}

func newJSONLines() *jsonLines {
	return &jsonLines{body: newSpool(), bySchema: map[string][]int{}, byPkg: map[string][]int{}, byName: map[string][]int{}}
}

// addFile appends the objects of one file; it is not safe for concurrent
// use.
func (j *jsonLines) addFile(lines declcfg.Lines) error {
	base := j.body.Size()
	for _, o := range lines.Objects {
		i := len(j.ends)
		j.ends = append(j.ends, base+int64(o.End))
		j.bySchema[o.Schema] = append(j.bySchema[o.Schema], i)
		j.byPkg[o.Package] = append(j.byPkg[o.Package], i)
		j.byName[o.Name] = append(j.byName[o.Name], i)
	}
	if _, err := j.body.Write(lines.Data); err != nil {
		return fmt.Errorf("keeping the catalog for the HTTP API: %w", err)
	}
	return nil
}

// appendLine appends the i-th object's line to dst.
func (j *jsonLines) appendLine(dst []byte, i int) ([]byte, error) {
	start := int64(0)
	if i > 0 {
		start = j.ends[i-1]
	}
	n := len(dst)
	dst = append(dst, make([]byte, j.ends[i]-start)...)
	_, err := j.body.ReadAt(dst[n:], start)
	return dst, err
}

func (j *jsonLines) close() {
	_ = j.body.Close()
	if j.gzipped != nil {
		_ = j.gzipped.Close()
	}
}

// fileOrder receives the objects of each catalog file as the loader
// finishes it (in any order) and adds them to lines in file order.
type fileOrder struct {
	mu      sync.Mutex
	lines   *jsonLines
	pending map[int]declcfg.Lines
	next    int
	err     error
}

func (o *fileOrder) add(file int, lines declcfg.Lines) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending[file] = lines
	for {
		ready, ok := o.pending[o.next]
		if !ok {
			return
		}
		delete(o.pending, o.next)
		o.next++
		if err := o.lines.addFile(ready); err != nil && o.err == nil {
			o.err = err
		}
	}
}

// The HTTP API's messages are catalogd's: "<code> <status text>".
func httpError(w http.ResponseWriter, code int) {
	http.Error(w, fmt.Sprintf("%d %s", code, http.StatusText(code)), code)
}

// gzipThreshold is the smallest body sent compressed, as catalogd's
// compression handler does.
const gzipThreshold = 1400

// HTTPHandler serves the catalog as catalogd's HTTP API does: GET or HEAD
// /api/v1/all (every object, as JSON lines) and /api/v1/metas?schema=&
// package=&name= (the objects matching every non-empty parameter, in
// catalog order), with Last-Modified and conditional requests, ranges,
// and gzip for clients that accept it. The catalog must have been loaded
// with LoadOptions.Blobs.
func (c *Catalog) HTTPHandler() http.Handler {
	j := c.lines
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/all", "/api/v1/metas":
		default:
			httpError(w, http.StatusNotFound)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			httpError(w, http.StatusMethodNotAllowed)
			return
		}
		if j == nil {
			httpError(w, http.StatusNotFound)
			return
		}
		if r.URL.Path == "/api/v1/all" {
			j.serveAll(w, r)
			return
		}
		body, ok, err := j.query(r)
		switch {
		case !ok:
			httpError(w, http.StatusBadRequest)
		case err != nil:
			httpError(w, http.StatusInternalServerError)
		default:
			j.serve(w, r, bytes.NewReader(body), int64(len(body)), func() (io.ReadSeeker, error) {
				return bytes.NewReader(compress(body)), nil
			})
		}
	})
}

// query selects the lines /api/v1/metas asks for; ok is false for
// parameters it does not know.
func (j *jsonLines) query(r *http.Request) (body []byte, ok bool, err error) {
	q := r.URL.Query()
	var sets [][]int
	for key := range q {
		var index map[string][]int
		switch key {
		case "schema":
			index = j.bySchema
		case "package":
			index = j.byPkg
		case "name":
			index = j.byName
		default:
			return nil, false, nil
		}
		if v := q.Get(key); v != "" {
			sets = append(sets, index[v])
		}
	}
	if len(sets) == 0 {
		body = make([]byte, j.body.Size())
		_, err = j.body.ReadAt(body, 0)
		return body, true, err
	}
	slices.SortFunc(sets, func(a, b []int) int { return len(a) - len(b) })
	for _, i := range sets[0] {
		if inAll(i, sets[1:]) {
			if body, err = j.appendLine(body, i); err != nil {
				return nil, true, err
			}
		}
	}
	return body, true, nil
}

func inAll(i int, sets [][]int) bool {
	for _, s := range sets {
		if _, found := slices.BinarySearch(s, i); !found {
			return false
		}
	}
	return true
}

// serve writes a body of size bytes, compressed (by gz) when the client
// accepts gzip and it is worth it. http.ServeContent answers HEAD, ranges
// and the conditional headers against the catalog's modification time.
func (j *jsonLines) serve(w http.ResponseWriter, r *http.Request, body io.ReadSeeker, size int64, gz func() (io.ReadSeeker, error)) {
	h := w.Header()
	h.Set("Content-Type", "application/jsonl")
	h.Add("Vary", "Accept-Encoding")
	if size > gzipThreshold && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		zbody, err := gz()
		if err != nil {
			httpError(w, http.StatusInternalServerError)
			return
		}
		h.Set("Content-Encoding", "gzip")
		body = zbody
	}
	http.ServeContent(w, r, "", j.modified, body)
}

// serveAll serves every line; the compressed form is made once, on first
// demand.
func (j *jsonLines) serveAll(w http.ResponseWriter, r *http.Request) {
	j.serve(w, r, j.body.reader(), j.body.Size(), func() (io.ReadSeeker, error) {
		j.gzipOnce.Do(func() {
			j.gzipped = newSpool()
			zw, _ := gzip.NewWriterLevel(j.gzipped, gzip.DefaultCompression)
			if _, err := io.Copy(zw, j.body.reader()); err != nil {
				j.gzipErr = err
			}
			if err := zw.Close(); err != nil && j.gzipErr == nil {
				j.gzipErr = err
			}
		})
		if j.gzipErr != nil {
			return nil, j.gzipErr
		}
		return j.gzipped.reader(), nil
	})
}

func compress(data []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	_, _ = zw.Write(data) // writes to a bytes.Buffer do not fail
	_ = zw.Close()
	return buf.Bytes()
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) listed without
// q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		return q > 0
	}
	return false
}
