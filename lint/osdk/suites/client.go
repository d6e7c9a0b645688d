package suites

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Validator runs operator-sdk's suites on bundles: the opm-osdk helper
// through a Client, or the validators in the same process (lint/osdk,
// which links them). Validate is safe for bundles validated at once. An
// error is the validator's failing to answer (the helper cannot be
// reached, a file of the bundle cannot be read), never something of the
// bundle: that is in the Result.
type Validator interface {
	Validate(b *Bundle) (*Result, error)
	// Close ends the validator, once every Validate returned; an error
	// says it did not end well (the helper failed).
	Close() error
}

// Client speaks the protocol (see wire.go) to a helper. It is safe for
// bundles validated at once: requests are written one at a time and
// answered in order, so the helper validates several at once as lint
// reads several.
type Client struct {
	// name names the helper in errors: its path.
	name string
	// w is the helper's input, closed once (closeInput).
	w      io.WriteCloser
	closeW sync.Once
	// wait waits for the helper to end, and says how it ended.
	wait func() error
	// done is closed when the reader ends.
	done chan struct{}

	// writing serialises requests and keeps queue in their order.
	writing sync.Mutex
	bw      *bufio.Writer

	mu sync.Mutex
	// queue are the requests sent and not answered, oldest first.
	queue []chan response
	// err, once set, is why the client cannot go on: every request
	// after it fails with it. closing is set by Close, and closeErr is
	// what Close returns: how the helper ended, if not well.
	err      error
	closing  bool
	closeErr error
}

// Connect starts speaking the protocol to a helper that reads w and
// writes r: says hello and checks the helper's. name names the helper in
// errors; wait (nil for none) waits for it to end once w is closed, and
// says how it ended: Close calls it, and so does a client whose helper
// stopped answering, to say why.
func Connect(name string, r io.Reader, w io.WriteCloser, wait func() error) (*Client, error) {
	if wait == nil {
		wait = func() error { return nil }
	}
	c := &Client{name: name, w: w, wait: wait, done: make(chan struct{}), bw: bufio.NewWriterSize(w, 1<<16)}
	br := bufio.NewReaderSize(r, 1<<16)
	if err := c.handshake(br); err != nil {
		_ = w.Close()
		how := wait()
		var refused *helloError
		switch {
		case errors.As(err, &refused):
			return nil, err
		case how != nil:
			return nil, fmt.Errorf("%s stopped before it said hello: %w", name, how)
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%s stopped before it said hello", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	go c.read(br)
	return c, nil
}

// handshake says hello and reads the helper's. The helper's answer is
// read even when opm's hello could not be written: a program that is not
// opm-osdk may have said something and ended before reading it, and what
// it said is the better error.
func (c *Client) handshake(br *bufio.Reader) error {
	werr := writeLine(c.bw, hello{Protocol: Protocol, From: fromOpm})
	if werr == nil {
		werr = c.bw.Flush()
	}
	line, err := br.ReadBytes('\n')
	if err != nil && len(line) == 0 {
		if werr != nil {
			return werr
		}
		return err
	}
	var h hello
	if err := json.Unmarshal(line, &h); err != nil || h.From != fromHelper {
		said := strings.TrimSpace(string(line))
		if len(said) > 80 {
			said = said[:80] + "..."
		}
		return &helloError{fmt.Sprintf("%s is not opm-osdk: it answered %q to opm's hello", c.name, said)}
	}
	if h.Protocol != Protocol {
		return &helloError{fmt.Sprintf("%s speaks version %d of opm-osdk's protocol, this opm version %d: install the opm-osdk of this opm's version (%s)",
			c.name, h.Protocol, Protocol, howToInstall())}
	}
	return werr
}

// helloError is a helper refused for its hello.
type helloError struct{ msg string }

func (e *helloError) Error() string { return e.msg }

// Validate sends the bundle b and waits for the helper's answer.
func (c *Client) Validate(b *Bundle) (*Result, error) {
	req, data, err := encodeRequest(b)
	if err != nil {
		return nil, err
	}
	answer := make(chan response, 1)
	if err := c.send(req, data, answer); err != nil {
		return nil, err
	}
	resp, ok := <-answer
	if !ok {
		return nil, c.failure()
	}
	if resp.Error != "" {
		return nil, fmt.Errorf("%s could not validate %s: %s", c.name, b.Dir, resp.Error)
	}
	if resp.Result == nil {
		return nil, fmt.Errorf("%s answered nothing for %s", c.name, b.Dir)
	}
	return resp.Result, nil
}

// send queues answer for the request and writes it.
func (c *Client) send(req *request, data [][]byte, answer chan response) error {
	c.writing.Lock()
	defer c.writing.Unlock()
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.queue = append(c.queue, answer)
	c.mu.Unlock()
	err := writeRequest(c.bw, req, data)
	if err == nil {
		err = c.bw.Flush()
	}
	if err != nil {
		// The helper reads no more: the reader says why when the stream
		// ends, which the answer waits for.
		c.closeInput()
	}
	return nil
}

// read reads the helper's answers and gives each to the oldest request,
// until the stream ends.
func (c *Client) read(br *bufio.Reader) {
	defer close(c.done)
	for {
		var resp response
		err := readLine(br, &resp)
		c.mu.Lock()
		if err == nil && len(c.queue) == 0 {
			err = errors.New("it answered a request it was not sent")
		}
		if err != nil {
			c.mu.Unlock()
			c.stop(err)
			return
		}
		answer := c.queue[0]
		c.queue = c.queue[1:]
		c.mu.Unlock()
		answer <- resp
	}
}

// errClosed is the error of a request sent after Close.
var errClosed = errors.New("the operator-sdk suites' validator is closed")

// stop ends the client on the stream's error err (io.EOF: it ended):
// the helper is waited for, and every request waiting, and every one
// after, fails with why it stopped. The end of the stream after Close,
// with nothing waiting, is the helper ending well.
func (c *Client) stop(err error) {
	c.closeInput()
	how := c.wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing && errors.Is(err, io.EOF) && len(c.queue) == 0 {
		c.err = errClosed
		if how != nil {
			c.closeErr = fmt.Errorf("%s ended: %w", c.name, how)
		}
		return
	}
	switch {
	case how != nil:
		c.err = fmt.Errorf("%s stopped: %w", c.name, how)
	case errors.Is(err, io.EOF):
		c.err = fmt.Errorf("%s stopped answering", c.name)
	default:
		c.err = fmt.Errorf("%s: %w", c.name, err)
	}
	c.closeErr = c.err
	for _, answer := range c.queue {
		close(answer)
	}
	c.queue = nil
}

// closeInput closes the helper's input: the helper answers what it was
// sent, then ends.
func (c *Client) closeInput() {
	c.closeW.Do(func() { _ = c.w.Close() })
}

// failure is why the client stopped.
func (c *Client) failure() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the helper: it answers what it was sent, then sees the end
// of its input and exits. The error is how it ended, if not well.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.writing.Lock()
	c.closeInput()
	c.writing.Unlock()
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeErr
}
