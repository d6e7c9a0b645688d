package serve

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// upstreamLines is the catalog as catalogd serves it, made the way
// upstream normalises blobs (YAML to JSON, into map[string]any, encoded
// with sorted keys and no HTML escaping), independently of our loader.
func upstreamLines(t *testing.T, dir string) []string {
	t.Helper()
	var lines []string
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(dir + "/" + p)
		if err != nil {
			return err
		}
		var docs [][]byte
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			dec := json.NewDecoder(bytes.NewReader(data))
			for {
				var raw json.RawMessage
				if err := dec.Decode(&raw); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					return err
				}
				docs = append(docs, raw)
			}
		} else {
			for _, doc := range strings.Split(string(data), "\n---\n") {
				j, err := yaml.YAMLToJSON([]byte(doc))
				if err != nil {
					return err
				}
				docs = append(docs, j)
			}
		}
		for _, doc := range docs {
			var m map[string]any
			if err := json.Unmarshal(doc, &m); err != nil {
				return err
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(m); err != nil {
				return err
			}
			lines = append(lines, buf.String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func get(t *testing.T, h http.Handler, method, target string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestHTTPAPI checks catalogd's HTTP API: /api/v1/all serves the catalog
// as upstream normalises it; the subtests check the rest on top of it.
func TestHTTPAPI(t *testing.T) {
	cat, err := Load(context.Background(), os.DirFS(testCatalog), LoadOptions{Blobs: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	h := cat.HTTPHandler()
	want := upstreamLines(t, testCatalog)

	all := get(t, h, http.MethodGet, "/api/v1/all")
	if all.Code != http.StatusOK || all.Header().Get("Content-Type") != "application/jsonl" {
		t.Fatalf("/all: %d %v", all.Code, all.Header())
	}
	if got := all.Body.String(); got != strings.Join(want, "") {
		gotLines := strings.SplitAfter(got, "\n")
		for i := range want {
			if i >= len(gotLines) || gotLines[i] != want[i] {
				t.Fatalf("/all line %d:\n got: %.300s\nwant: %.300s", i+1, gotLines[min(i, len(gotLines)-1)], want[i])
			}
		}
		t.Fatalf("/all: %d lines, want %d", len(gotLines)-1, len(want))
	}
	if n, _ := strconv.Atoi(all.Header().Get("Content-Length")); n != all.Body.Len() {
		t.Errorf("Content-Length %d for %d bytes", n, all.Body.Len())
	}
	t.Run("conditional", func(t *testing.T) { testHTTPConditional(t, h, all) })
	t.Run("gzip", func(t *testing.T) { testHTTPGzip(t, h) })
	t.Run("metas", func(t *testing.T) { testHTTPMetas(t, h, all) })
	t.Run("errors", func(t *testing.T) { testHTTPErrors(t, h) })
}

// testHTTPConditional checks conditional requests, HEAD and ranges, all
// being the response to /api/v1/all.
func testHTTPConditional(t *testing.T, h http.Handler, all *httptest.ResponseRecorder) {
	lastMod := all.Header().Get("Last-Modified")
	if _, err := time.Parse(http.TimeFormat, lastMod); err != nil {
		t.Fatalf("Last-Modified %q: %v", lastMod, err)
	}
	if rec := get(t, h, http.MethodGet, "/api/v1/all", "If-Modified-Since", lastMod); rec.Code != http.StatusNotModified {
		t.Errorf("If-Modified-Since: %d", rec.Code)
	}
	if rec := get(t, h, http.MethodGet, "/api/v1/metas?schema=olm.package", "If-Modified-Since", lastMod); rec.Code != http.StatusNotModified {
		t.Errorf("metas If-Modified-Since: %d", rec.Code)
	}
	if rec := get(t, h, http.MethodHead, "/api/v1/all"); rec.Code != http.StatusOK || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") != strconv.Itoa(all.Body.Len()) {
		t.Errorf("HEAD: %d, %d bytes, length %s", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Length"))
	}
	if rec := get(t, h, http.MethodGet, "/api/v1/all", "Range", "bytes=0-9"); rec.Code != http.StatusPartialContent || rec.Body.String() != all.Body.String()[:10] {
		t.Errorf("Range: %d %q", rec.Code, rec.Body.String())
	}
}

// testHTTPGzip checks gzip for clients that ask for it, the same bytes
// inside.
func testHTTPGzip(t *testing.T, h http.Handler) {
	for _, target := range []string{"/api/v1/all", "/api/v1/metas?package=foo"} {
		plain := get(t, h, http.MethodGet, target)
		zipped := get(t, h, http.MethodGet, target, "Accept-Encoding", "br, gzip;q=0.8")
		if zipped.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(zipped.Header().Get("Vary"), "Accept-Encoding") {
			t.Fatalf("%s: not gzipped: %v", target, zipped.Header())
		}
		zr, err := gzip.NewReader(zipped.Body)
		if err != nil {
			t.Fatal(err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(unzipped, plain.Body.Bytes()) {
			t.Errorf("%s: gzip body differs (%v)", target, err)
		}
	}
	if rec := get(t, h, http.MethodGet, "/api/v1/all", "Accept-Encoding", "gzip;q=0"); rec.Header().Get("Content-Encoding") != "" {
		t.Error("gzip;q=0 got gzip")
	}
}

// testHTTPMetas checks that /metas filters by every parameter given, in
// catalog order, and is the whole catalog (all) without parameters.
func testHTTPMetas(t *testing.T, h http.Handler, all *httptest.ResponseRecorder) {
	for _, tt := range []struct {
		query string
		want  []string // schema/package/name of each line
	}{
		{"schema=olm.package&name=foo", []string{"olm.package//foo"}},
		{"package=foo&schema=olm.channel", []string{"olm.channel/foo/stable", "olm.channel/foo/fast", "olm.channel/foo/beta"}},
		{"package=foo&name=foo", nil}, // an olm.package blob has no package field
		{"schema=example.widget", []string{"example.widget/foo/gear", "example.widget/foo/cog", "example.widget//loose"}},
		{"schema=example.widget&package=&name=", []string{"example.widget/foo/gear", "example.widget/foo/cog", "example.widget//loose"}},
		{"name=bar.v1.0.0&name=foo.v1.0.0", []string{"olm.bundle/bar/bar.v1.0.0"}}, // the first value counts
	} {
		rec := get(t, h, http.MethodGet, "/api/v1/metas?"+tt.query)
		var got []string
		for _, m := range decodeLines(t, rec) {
			pkg, _ := m["package"].(string)
			name, _ := m["name"].(string)
			got = append(got, m["schema"].(string)+"/"+pkg+"/"+name)
		}
		if rec.Code != http.StatusOK || strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("metas?%s: %d %v, want %v", tt.query, rec.Code, got, tt.want)
		}
	}
	if rec := get(t, h, http.MethodGet, "/api/v1/metas"); rec.Body.String() != all.Body.String() {
		t.Error("metas without parameters is not the whole catalog")
	}
}

// decodeLines decodes the JSON lines of a response.
func decodeLines(t *testing.T, rec *httptest.ResponseRecorder) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(rec.Body.String(), "\n"), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// testHTTPErrors checks the answers to bad requests: the status and its
// text, and Allow with 405.
func testHTTPErrors(t *testing.T, h http.Handler) {
	for _, tt := range []struct {
		method, target string
		code           int
	}{
		{http.MethodGet, "/api/v1/metas?version=1", http.StatusBadRequest},
		{http.MethodGet, "/api/v1/metas?schema=x&bogus=", http.StatusBadRequest},
		{http.MethodGet, "/api/v1/other", http.StatusNotFound},
		{http.MethodGet, "/", http.StatusNotFound},
		{http.MethodPost, "/api/v1/all", http.StatusMethodNotAllowed},
		{http.MethodDelete, "/api/v1/metas", http.StatusMethodNotAllowed},
	} {
		rec := get(t, h, tt.method, tt.target)
		if want := strconv.Itoa(tt.code) + " " + http.StatusText(tt.code) + "\n"; rec.Code != tt.code || rec.Body.String() != want {
			t.Errorf("%s %s: %d %q, want %d", tt.method, tt.target, rec.Code, rec.Body.String(), tt.code)
		}
	}
	if rec := get(t, h, http.MethodPut, "/api/v1/all"); rec.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("405 without Allow: %v", rec.Header())
	}
}

// Without LoadOptions.Blobs there is nothing to serve over HTTP.
func TestHTTPAPIOff(t *testing.T) {
	cat, err := Load(context.Background(), os.DirFS(testCatalog), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rec := get(t, cat.HTTPHandler(), http.MethodGet, "/api/v1/all"); rec.Code != http.StatusNotFound {
		t.Errorf("%d", rec.Code)
	}
}
