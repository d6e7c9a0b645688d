package suites

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
)

// Serve is the helper's side of the protocol (see wire.go): it reads
// opm's hello and says its own, then answers each request read from r on
// w with validate's result for its bundle, in order, validating a few at
// once (GOMAXPROCS). It returns nil when r ends between requests, once
// every answer is written; an error when the hello is refused, a request
// cannot be read (after answering it with the error) or w cannot be
// written.
func Serve(r io.Reader, w io.Writer, validate func(*Bundle) *Result) error {
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriterSize(w, 1<<16)
	var h hello
	readErr := readLine(br, &h)
	if err := writeLine(bw, hello{Protocol: Protocol, From: fromHelper}); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	var syntax *json.SyntaxError
	switch {
	case readErr != nil && !errors.As(readErr, &syntax):
		return fmt.Errorf("reading opm's hello: %w", unexpected(readErr))
	case h.From != fromOpm:
		return errors.New("the first line read is not opm's hello: opm-osdk is started by opm, not by hand")
	case h.Protocol != Protocol:
		return fmt.Errorf("opm speaks version %d of opm-osdk's protocol, this opm-osdk version %d: use the opm-osdk of that opm's version", h.Protocol, Protocol)
	}
	workers := runtime.GOMAXPROCS(0)
	answers := make(chan chan response, workers)
	written := make(chan error, 1)
	go func() { written <- writeAnswers(bw, answers) }()
	busy := make(chan struct{}, workers)
	for {
		b, err := readRequest(br)
		if errors.Is(err, io.EOF) {
			break
		}
		answer := make(chan response, 1)
		answers <- answer
		if err != nil {
			answer <- response{Error: err.Error()}
			close(answers)
			<-written
			return err
		}
		busy <- struct{}{}
		go func() {
			defer func() { <-busy }()
			answer <- response{Result: validate(b)}
		}()
	}
	close(answers)
	return <-written
}

// writeAnswers writes each answer as it comes, in order, and takes them
// all even once w fails (so that requests are still read); the error is
// w's first.
func writeAnswers(bw *bufio.Writer, answers <-chan chan response) error {
	var failed error
	for answer := range answers {
		resp := <-answer
		if failed != nil {
			continue
		}
		if failed = writeLine(bw, resp); failed == nil {
			failed = bw.Flush()
		}
	}
	return failed
}
