package serve

import (
	"bytes"
	"fmt"
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
// line of JSON (upstream's normalised blob), in load order, with indexes
// for /api/v1/metas.
type jsonLines struct {
	data     []byte
	ends     []int // end offset of each object's line in data
	bySchema map[string][]int
	byPkg    map[string][]int
	byName   map[string][]int
	modified time.Time

	gzipOnce sync.Once
	gzipped  []byte // data compressed, made on first demand
}

func newJSONLines(blobs []*declcfg.Meta, modified time.Time) *jsonLines {
	size := 0
	for _, m := range blobs {
		size += len(m.Blob) + 1
	}
	j := &jsonLines{data: make([]byte, 0, size), ends: make([]int, len(blobs)), modified: modified,
		bySchema: map[string][]int{}, byPkg: map[string][]int{}, byName: map[string][]int{}}
	for i, m := range blobs {
		j.data = append(append(j.data, m.Blob...), '\n')
		j.ends[i] = len(j.data)
		j.bySchema[m.Schema] = append(j.bySchema[m.Schema], i)
		j.byPkg[m.Package] = append(j.byPkg[m.Package], i)
		j.byName[m.Name] = append(j.byName[m.Name], i)
	}
	return j
}

// line returns the i-th object's line.
func (j *jsonLines) line(i int) []byte {
	start := 0
	if i > 0 {
		start = j.ends[i-1]
	}
	return j.data[start:j.ends[i]]
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
			j.serve(w, r, j.data, j.gzipAll)
			return
		}
		body, ok := j.query(r)
		if !ok {
			httpError(w, http.StatusBadRequest)
			return
		}
		j.serve(w, r, body, func() []byte { return compress(body) })
	})
}

// query selects the lines /api/v1/metas asks for; ok is false for
// parameters it does not know.
func (j *jsonLines) query(r *http.Request) (body []byte, ok bool) {
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
			return nil, false
		}
		if v := q.Get(key); v != "" {
			sets = append(sets, index[v])
		}
	}
	if len(sets) == 0 {
		return j.data, true
	}
	slices.SortFunc(sets, func(a, b []int) int { return len(a) - len(b) })
	var out []byte
	for _, i := range sets[0] {
		if inAll(i, sets[1:]) {
			out = append(out, j.line(i)...)
		}
	}
	return out, true
}

func inAll(i int, sets [][]int) bool {
	for _, s := range sets {
		if _, found := slices.BinarySearch(s, i); !found {
			return false
		}
	}
	return true
}

// serve writes body, compressed (by gz) when the client accepts gzip and
// it is worth it. http.ServeContent answers HEAD, ranges and the
// conditional headers against the catalog's modification time.
func (j *jsonLines) serve(w http.ResponseWriter, r *http.Request, body []byte, gz func() []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/jsonl")
	h.Add("Vary", "Accept-Encoding")
	if len(body) > gzipThreshold && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = gz()
	}
	http.ServeContent(w, r, "", j.modified, bytes.NewReader(body))
}

func (j *jsonLines) gzipAll() []byte {
	j.gzipOnce.Do(func() { j.gzipped = compress(j.data) })
	return j.gzipped
}

func compress(data []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(data) / 4)
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
