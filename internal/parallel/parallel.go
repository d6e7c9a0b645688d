// Package parallel runs a function over the indexes of a list a bounded
// number at a time, with an outcome that does not depend on timing: the
// error reported is that of the first failing index in input order.
package parallel

import (
	"context"
	"errors"
	"runtime"
	"sync"
)

// Do calls f(i) for every i in [0, n), at most limit calls at once
// (GOMAXPROCS when limit <= 0), in order of i, and waits for the calls it
// started. It returns the error of the lowest i whose call failed: once a
// call fails no further call starts, and every lower index had started
// before it, so the error does not depend on timing. When ctx is done no
// call starts after it, and ctx's error stands for the indexes left out.
func Do(ctx context.Context, n, limit int, f func(i int) error) error {
	for _, err := range run(ctx, n, limit, true, f) {
		if err != nil {
			return err
		}
	}
	return nil
}

// DoAll is Do for callers that report every failure: every call runs
// (but those ctx's end leaves out), and the errors are joined in input
// order; nil when none failed.
func DoAll(ctx context.Context, n, limit int, f func(i int) error) error {
	return errors.Join(run(ctx, n, limit, false, f)...)
}

// run calls f on the indexes a few at a time and returns each one's
// error. With stop, a failure stops the indexes after it from starting;
// those, and the indexes left out when ctx ends, have ctx's error or none.
func run(ctx context.Context, n, limit int, stop bool, f func(i int) error) []error {
	if limit <= 0 {
		limit = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		failed bool
	)
	slots := make(chan struct{}, limit)
	for i := range n {
		slots <- struct{}{}
		mu.Lock()
		stopped := stop && failed
		mu.Unlock()
		if stopped {
			<-slots
			break
		}
		if err := ctx.Err(); err != nil {
			<-slots
			errs[i] = err
			break
		}
		wg.Go(func() {
			defer func() { <-slots }()
			if err := f(i); err != nil {
				errs[i] = err
				mu.Lock()
				failed = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errs
}
