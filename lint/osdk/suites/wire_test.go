package suites

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// connect runs Serve with validate over pipes and connects a Client to
// it; the test closes the client.
func connect(t *testing.T, validate func(*Bundle) *Result) *Client {
	t.Helper()
	toServe, requests := io.Pipe()
	answers, fromServe := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := Serve(toServe, fromServe, validate)
		_ = toServe.CloseWithError(io.ErrClosedPipe)
		_ = fromServe.CloseWithError(err)
		served <- err
	}()
	c, err := Connect("test helper", answers, requests, func() error { return <-served })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The helper reads a sent bundle as registryv1 read the directory: the
// same entries, sizes (a symbolic link's own), skipped files, objects,
// lines and sums, and the same annotations file; answers come back as
// the validator made them, in order, to requests sent at once.
func TestSentAsRead(t *testing.T) {
	dir := oddBundle(t)
	files := readDir(t, dir)
	want := describe(files)
	if !strings.Contains(want, "manifests/link.yaml dir=false size=") || strings.Contains(want, "link.yaml dir=false size=54 ") {
		t.Fatalf("the test bundle's link is not measured as a link:\n%s", want)
	}
	c := connect(t, describing)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			b := &Bundle{Dir: fmt.Sprintf("operators/a/%d", i), Files: files, KubernetesVersion: "1.34"}
			r, err := c.Validate(b)
			if err != nil {
				t.Error(err)
				return
			}
			if got, want := r.Default[0].Message, b.Dir+" 1.34\n"+want; got != want {
				t.Errorf("the helper read\n%s\nlint read\n%s", got, want)
			}
		})
	}
	wg.Wait()
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if _, err := c.Validate(&Bundle{Dir: dir, Files: files}); !errors.Is(err, errClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// A result comes back as it was made: outputs, places, causes, and a
// stopped load as its message.
func TestResultsSent(t *testing.T) {
	results := []*Result{
		{Default: []Output{{Error: true, Message: "m\nwith a newline", File: "manifests/x.yaml", Line: 3, Causes: []string{"csv-field:spec.icon"}}},
			Optional: [2][]Output{{{Message: "w"}}, nil}},
		{Stopped: errors.New("bundle manifests dir has hidden file: x/manifests/.y")},
		{},
	}
	i := 0
	c := connect(t, func(*Bundle) *Result { i++; return results[i-1] })
	defer c.Close()
	files := readDir(t, oddBundle(t))
	for _, want := range results {
		got, err := c.Validate(&Bundle{Dir: "d", Files: files})
		if err != nil || !got.Equal(want) {
			t.Errorf("got %+v, %v; want %+v", got, err, want)
		}
	}
}

// Serve refuses what opm would never send, answering with why: a hello
// that is not opm's or of another version, and requests that name
// entries outside manifests/ and metadata/, twice, or that end early.
func TestServeRefuses(t *testing.T) {
	opm := `{"opm-osdk-protocol":1,"from":"opm"}` + "\n"
	for _, tc := range []struct{ name, in, want string }{
		{"no hello", "", "reading opm's hello: unexpected EOF"},
		{"not JSON", "hello\n", "not opm's hello: opm-osdk is started by opm, not by hand"},
		{"another's hello", `{"opm-osdk-protocol":1,"from":"opm-osdk"}` + "\n", "not opm's hello"},
		{"another version", `{"opm-osdk-protocol":2,"from":"opm"}` + "\n", "opm speaks version 2 of opm-osdk's protocol, this opm-osdk version 1"},
		{"a name outside", opm + `{"dir":"d","files":[{"name":"../x","len":0}]}` + "\n", `the request names "../x": not an entry of manifests/ or metadata/`},
		{"a name below", opm + `{"dir":"d","files":[{"name":"manifests/a/b","len":0}]}` + "\n", `the request names "manifests/a/b"`},
		{"twice", opm + `{"dir":"d","files":[{"name":"metadata/a","len":0},{"name":"metadata/a","len":0}]}` + "\n", `the request names "metadata/a" twice`},
		{"negative", opm + `{"dir":"d","files":[{"name":"metadata/a","len":-1}]}` + "\n", `the request gives "metadata/a" -1 bytes`},
		{"a directory's bytes", opm + `{"dir":"d","files":[{"name":"metadata/a","dir":true,"len":2}]}` + "\n", `the request gives "metadata/a" 2 bytes`},
		{"cut short", opm + `{"dir":"d","files":[{"name":"metadata/a","len":5}]}` + "\nabc", "reading metadata/a of d: unexpected EOF"},
		{"a header cut short", opm + `{"dir":"d"`, "unexpected EOF"},
		{"no entries", opm + `{"dir":"d","files":[]}` + "\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Serve(strings.NewReader(tc.in), &out, func(b *Bundle) *Result { return &Result{} })
			if tc.want == "" {
				if err != nil {
					t.Errorf("got %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if lines[0] != `{"opm-osdk-protocol":1,"from":"opm-osdk"}` {
				t.Errorf("no hello: %q", out.String())
			}
			if strings.HasPrefix(tc.in, opm) && (len(lines) != 2 || !strings.Contains(lines[1], `"error":`)) {
				t.Errorf("the bad request is not answered with its error: %q", out.String())
			}
		})
	}
}

// A helper that ends, answers with an error, or answers what it was not
// asked fails the request, and every request after it, and Close says
// so too.
func TestClientFails(t *testing.T) {
	files := readDir(t, oddBundle(t))
	b := &Bundle{Dir: "d", Files: files}
	for _, tc := range []struct {
		name, answers, want string
		wait                error
	}{
		{"ended", "", "h stopped answering", nil},
		{"ended badly", "", "h stopped: exit status 3", errors.New("exit status 3")},
		{"an error", `{"error":"no memory"}` + "\n", "h could not validate d: no memory", nil},
		{"nothing", `{}` + "\n", "h answered nothing for d", nil},
		{"garbage", "what\n", "h: invalid character", nil},
		{"unasked", `{"result":{}}` + "\n" + `{"result":{}}` + "\n", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &fakeHelper{requested: make(chan struct{}), answers: strings.NewReader(tc.answers)}
			r := io.MultiReader(strings.NewReader(`{"opm-osdk-protocol":1,"from":"opm-osdk"}`+"\n"), h)
			c, err := Connect("h", r, h, func() error { return tc.wait })
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Validate(b)
			if tc.want == "" { // the first answer is fine, the second was not asked for
				if err != nil {
					t.Fatal(err)
				}
				<-c.done
				tc.want = "h: it answered a request it was not sent"
			} else if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if tc.name == "an error" || tc.name == "nothing" {
				return // the helper answered: it goes on
			}
			if _, err := c.Validate(b); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("the next request: %v", err)
			}
			if err := c.Close(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("close: %v", err)
			}
		})
	}
}

// Connect refuses a helper that says no hello, another's, or another
// version's.
func TestConnectRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, said, want string
		wait             error
	}{
		{"nothing", "", "h stopped before it said hello", nil},
		{"nothing, badly", "", "h stopped before it said hello: signal: killed", errors.New("signal: killed")},
		{"echo", `{"opm-osdk-protocol":1,"from":"opm"}` + "\n", `h is not opm-osdk: it answered "{\"opm-osdk-protocol\":1,\"from\":\"opm\"}" to opm's hello`, nil},
		{"long", strings.Repeat("x", 200), `h is not opm-osdk: it answered "` + strings.Repeat("x", 80) + `..." to opm's hello`, errors.New("exit status 1")},
		{"another version", `{"opm-osdk-protocol":7,"from":"opm-osdk"}` + "\n", "h speaks version 7 of opm-osdk's protocol, this opm version 1: install the opm-osdk of this opm's version (make build writes it beside bin/opm;", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Connect("h", strings.NewReader(tc.said), nopCloser{io.Discard}, func() error { return tc.wait })
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := Connect("h", strings.NewReader(""), failingWriter{}, nil); err == nil || !strings.Contains(err.Error(), "h: write failed") {
		t.Errorf("a helper that reads nothing: %v", err)
	}
	// A program that said something and ended before opm's hello was
	// written is judged by what it said.
	want := `h is not opm-osdk: it answered "hello" to opm's hello`
	if _, err := Connect("h", strings.NewReader("hello\n"), failingWriter{}, nil); err == nil || err.Error() != want {
		t.Errorf("a helper that spoke and ended: got %v, want %q", err, want)
	}
	// One that said opm-osdk's hello and stopped reading fails with the
	// write's error.
	if _, err := Connect("h", strings.NewReader(`{"opm-osdk-protocol":1,"from":"opm-osdk"}`+"\n"), failingWriter{}, nil); err == nil || !strings.Contains(err.Error(), "h: write failed") {
		t.Errorf("a helper that said hello and stopped reading: %v", err)
	}
}

// A request that cannot be written (the helper stopped reading) fails
// with why the helper stopped.
func TestClientWriteFails(t *testing.T) {
	r, w := io.Pipe()
	hello := bufio.NewReader(strings.NewReader(`{"opm-osdk-protocol":1,"from":"opm-osdk"}` + "\n"))
	go func() { _, _ = io.Copy(w, hello) }() // then nothing, until closed
	c, err := Connect("h", r, &closingWriter{after: 1, closed: func() { _ = w.Close() }}, func() error { return errors.New("exit status 2") })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Validate(&Bundle{Dir: "d", Files: readDir(t, oddBundle(t))}); err == nil || err.Error() != "h stopped: exit status 2" {
		t.Errorf("got %v", err)
	}
}

// A request whose bundle cannot be read is not sent: the error names the
// file, and the client goes on.
func TestUnreadableBundle(t *testing.T) {
	dir := oddBundle(t)
	files := readDir(t, dir)
	c := connect(t, describing)
	defer c.Close()
	gone := *files
	gone.FS = fstest.MapFS{}
	if _, err := c.Validate(&Bundle{Dir: "x", Files: &gone}); err == nil || !strings.HasPrefix(err.Error(), "reading x/manifests/a.clusterserviceversion.yaml: ") {
		t.Errorf("got %v", err)
	}
	if _, err := c.Validate(&Bundle{Dir: "x", Files: files}); err != nil {
		t.Errorf("the next bundle: %v", err)
	}
}

// fakeHelper is a helper's pipes whose answers can be read once a
// request was written (the first write is opm's hello).
type fakeHelper struct {
	requested chan struct{}
	once      sync.Once
	writes    int
	answers   io.Reader
}

func (h *fakeHelper) Write(p []byte) (int, error) {
	if h.writes++; h.writes > 1 {
		h.once.Do(func() { close(h.requested) })
	}
	return len(p), nil
}

func (h *fakeHelper) Close() error {
	h.once.Do(func() { close(h.requested) })
	return nil
}

func (h *fakeHelper) Read(p []byte) (int, error) {
	<-h.requested
	return h.answers.Read(p)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("write failed") }
func (failingWriter) Close() error              { return nil }

// closingWriter takes after writes, then fails and calls closed.
type closingWriter struct {
	after  int
	closed func()
}

func (w *closingWriter) Write(p []byte) (int, error) {
	if w.after == 0 {
		return 0, io.ErrClosedPipe
	}
	w.after--
	return len(p), nil
}

func (w *closingWriter) Close() error {
	if w.closed != nil {
		w.closed()
		w.closed = nil
	}
	return nil
}
