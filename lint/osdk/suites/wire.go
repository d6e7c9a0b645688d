package suites

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/fbcat/opm/registryv1"
)

// The protocol between opm and opm-osdk, over the helper's standard
// input and output. Each side first writes a hello line, opm then the
// helper; then opm writes requests, one bundle each, and the helper
// answers each, in order. A hello, a response and the header of a
// request are each one line of JSON; the files' bytes follow a request's
// header, each as long as the header says.
//
//	opm → helper   {"opm-osdk-protocol":1,"from":"opm"}
//	helper → opm   {"opm-osdk-protocol":1,"from":"opm-osdk"}
//	opm → helper   {"dir":"operators/x/1.0.0","k8s":"1.34","files":[{"name":"manifests/csv.yaml","size":812,"len":812},...]}
//	               the 812 bytes of manifests/csv.yaml, then the next file's
//	helper → opm   {"result":{"default":[...],"optional":[[...],[...]]}}
//	               or {"error":"why the helper could not validate it"}
//
// A change to any of these (Result's JSON, which the Store keeps too,
// included) changes Protocol.

// Protocol is the version of the protocol this build speaks: opm refuses
// a helper that speaks another, and the helper refuses such an opm.
const Protocol = 1

// hello is the first line each side writes.
type hello struct {
	Protocol int    `json:"opm-osdk-protocol"`
	From     string `json:"from"`
}

// Who writes a hello.
const (
	fromOpm    = "opm"
	fromHelper = "opm-osdk"
)

// request is the header of a request: the bundle but for its files'
// bytes.
type request struct {
	Dir               string     `json:"dir"`
	KubernetesVersion string     `json:"k8s"`
	Files             []wireFile `json:"files"`
}

// wireFile is an entry of manifests/ or metadata/.
type wireFile struct {
	// Name is its path from the bundle root ("manifests/csv.yaml").
	Name string `json:"name"`
	Dir  bool   `json:"dir,omitempty"`
	// Size is its size as its directory entry says (a symbolic link's
	// own): the loader's bundle size counts it.
	Size int64 `json:"size"`
	// Len is how many bytes of content follow the header: none for a
	// directory and for what registryv1 does not read (a hidden file of
	// manifests/).
	Len int `json:"len"`
}

// response is the helper's answer to a request.
type response struct {
	Result *Result `json:"result,omitempty"`
	Error  string  `json:"error,omitempty"`
}

// writeLine writes v as one line of JSON.
func writeLine(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// readLine reads one line of JSON into v; io.EOF when the stream ends
// before the line starts.
func readLine(r *bufio.Reader, v any) error {
	line, err := r.ReadBytes('\n')
	if err == io.EOF && len(line) > 0 {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(line, v)
}

// encodeRequest is the request for the bundle b and the bytes that
// follow its header, read from b's files.
func encodeRequest(b *Bundle) (*request, [][]byte, error) {
	req := &request{Dir: b.Dir, KubernetesVersion: b.KubernetesVersion}
	var data [][]byte
	add := func(name string, e fs.DirEntry, read bool) error {
		info, err := e.Info()
		if err != nil {
			return fmt.Errorf("reading %s: %w", filepath.Join(b.Dir, filepath.FromSlash(name)), err)
		}
		f := wireFile{Name: name, Dir: e.IsDir(), Size: info.Size()}
		if read {
			d, err := fs.ReadFile(b.Files.FS, name)
			if err != nil {
				return fmt.Errorf("reading %s: %w", filepath.Join(b.Dir, filepath.FromSlash(name)), err)
			}
			f.Len = len(d)
			data = append(data, d)
		}
		req.Files = append(req.Files, f)
		return nil
	}
	for _, m := range b.Files.Manifests {
		if err := add(m.File, m.Entry, !m.Skipped()); err != nil {
			return nil, nil, err
		}
	}
	for _, m := range b.Files.Metadata {
		if err := add(m.File, m.Entry, !m.Entry.IsDir()); err != nil {
			return nil, nil, err
		}
	}
	return req, data, nil
}

// writeRequest writes a request's header and its files' bytes.
func writeRequest(w io.Writer, req *request, data [][]byte) error {
	if err := writeLine(w, req); err != nil {
		return err
	}
	for _, d := range data {
		if _, err := w.Write(d); err != nil {
			return err
		}
	}
	return nil
}

// readRequest reads a request and makes the bundle it sends, read by
// registryv1 as lint read it; io.EOF when the stream ends between
// requests.
func readRequest(r *bufio.Reader) (*Bundle, error) {
	var req request
	if err := readLine(r, &req); err != nil {
		return nil, err
	}
	fsys, err := newReceived(req.Files)
	if err != nil {
		return nil, err
	}
	for _, f := range fsys.files {
		if _, err := io.ReadFull(r, f.data); err != nil {
			return nil, fmt.Errorf("reading %s of %s: %w", f.Name, req.Dir, unexpected(err))
		}
	}
	files, err := registryv1.ReadSkimmed(fsys)
	if err != nil {
		return nil, err
	}
	return &Bundle{Dir: req.Dir, Files: files, KubernetesVersion: req.KubernetesVersion}, nil
}

// unexpected is err, io.ErrUnexpectedEOF for io.EOF: the stream ended
// inside a message.
func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// checkName checks a received entry's name: an entry directly in
// manifests/ or metadata/.
func checkName(name string) error {
	dir, base, ok := strings.Cut(name, "/")
	if !ok || dir != "manifests" && dir != "metadata" || base == "" || strings.Contains(base, "/") || !fs.ValidPath(name) || path.Clean(name) != name {
		return fmt.Errorf("the request names %q: not an entry of manifests/ or metadata/", name)
	}
	return nil
}
