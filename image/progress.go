package image

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// byteCounter counts the bytes of blobs downloaded.
type byteCounter struct{ n atomic.Int64 }

type countingTransport struct {
	next    http.RoundTripper
	counter *byteCounter
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil && strings.Contains(req.URL.Path, "/blobs/") {
		resp.Body = &countingBody{ReadCloser: resp.Body, counter: t.counter}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	counter *byteCounter
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.counter.n.Add(int64(n))
	return n, err
}

// showProgress draws "pulling REF: 12.3 MB of 45.6 MB" on the progress
// writer every quarter second until stopped, then clears the line.
func (i *Image) showProgress() (stop func()) {
	w := i.opts.Progress
	if w == nil {
		return func() {}
	}
	var total int64
	if layers, err := i.img.Layers(); err == nil {
		for _, l := range layers {
			if n, err := l.Size(); err == nil {
				total += n
			}
		}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		shown := false
		for {
			select {
			case <-done:
				if shown {
					fmt.Fprint(w, "\r\033[K")
				}
				return
			case <-tick.C:
				fmt.Fprintf(w, "\r\033[Kpulling %s: %s of %s", i.Ref, megabytes(i.blobs.n.Load()), megabytes(total))
				shown = true
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
