package osdk

import (
	"context"
	"io"

	"github.com/fbcat/opm/lint/osdk/suites"
)

// Serve is opm-osdk: it answers opm's requests read from r on w (see
// suites.Serve), each bundle validated with one Cache for the whole
// stream, so that the CRDs and manifests the bundles of a lint run share
// are judged and measured once.
func Serve(r io.Reader, w io.Writer) error {
	var c Cache
	return suites.Serve(r, w, func(b *suites.Bundle) *suites.Result { return Validate(b, &c) })
}

// InProcess is a suites.Validator that runs Serve in this process, over
// pipes: the protocol and the validators of opm-osdk without the
// executable, for tests of what lint makes of their results (and for
// any program that links the validators anyway).
func InProcess(context.Context) (suites.Validator, error) {
	toServe, requests := io.Pipe()
	answers, fromServe := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := Serve(toServe, fromServe)
		_ = toServe.CloseWithError(io.ErrClosedPipe)
		_ = fromServe.CloseWithError(err)
		served <- err
	}()
	c, err := suites.Connect(suites.HelperName+" (in process)", answers, requests, func() error { return <-served })
	if err != nil {
		return nil, err
	}
	return c, nil
}
