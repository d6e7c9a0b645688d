// Package parallel runs a function over the indexes of a list a bounded
// number at a time, with an outcome that does not depend on timing: the
// error reported is that of the first failing index in input order. A
// worker may keep state of its own from one call to the next (DoWith).
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
	return DoWith(ctx, n, limit, noState, stateless(f))
}

// DoWith is Do for calls that reuse what their worker keeps from one
// call to the next (a buffer, a check that is not safe for concurrent
// use): a worker calls newState before its first call, on its own
// goroutine, and passes the result to each call it makes; a worker that
// gets no index calls nothing.
func DoWith[S any](ctx context.Context, n, limit int, newState func() S, f func(s S, i int) error) error {
	for _, err := range run(ctx, n, limit, true, newState, f) {
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
	return errors.Join(run(ctx, n, limit, false, noState, stateless(f))...)
}

// noState is the state of workers that keep none (Do, DoAll).
func noState() struct{} { return struct{}{} }

// stateless is f as a call of a worker that keeps no state.
func stateless(f func(i int) error) func(struct{}, int) error {
	return func(_ struct{}, i int) error { return f(i) }
}

// run calls f on the indexes a few at a time and returns each one's
// error. With stop, a failure stops the indexes after it from starting;
// those, and the indexes left out when ctx ends, have ctx's error or none.
// Up to limit workers take the indexes in order, so every index below a
// failing one has started before it; each makes its state (newState) when
// it takes its first index.
func run[S any](ctx context.Context, n, limit int, stop bool, newState func() S, f func(s S, i int) error) []error {
	if limit <= 0 {
		limit = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	q := queue{n: n, stop: stop, errs: errs}
	var wg sync.WaitGroup
	for range min(limit, n) {
		wg.Go(func() {
			var s S
			for started := false; ; started = true {
				i, ok := q.take(ctx)
				if !ok {
					return
				}
				if !started {
					s = newState()
				}
				if err := f(s, i); err != nil {
					q.fail(i, err)
				}
			}
		})
	}
	wg.Wait()
	return errs
}

// queue hands out the indexes of run in order until they run out, a call
// failed (with stop) or the context ended.
type queue struct {
	mu     sync.Mutex
	next   int
	n      int
	stop   bool
	ended  bool
	failed bool
	errs   []error
}

// take returns the next index to call, or false when none is to start:
// the first index left out when ctx has ended gets ctx's error.
func (q *queue) take(ctx context.Context) (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ended || q.next >= q.n || q.stop && q.failed {
		return 0, false
	}
	if err := ctx.Err(); err != nil {
		q.errs[q.next] = err
		q.ended = true
		return 0, false
	}
	q.next++
	return q.next - 1, true
}

// fail records the error of index i.
func (q *queue) fail(i int, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.errs[i] = err
	q.failed = true
}
