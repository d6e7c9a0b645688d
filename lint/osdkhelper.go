package lint

import (
	"context"
	"errors"
	"sync"

	"github.com/fbcat/opm/lint/osdk/suites"
	"github.com/fbcat/opm/option"
)

// osdkRunner is a run's way to operator-sdk's suites: the store of their
// verdicts by bundle content (Options.CacheDir), and the validator
// (Options.OSDK: the opm-osdk helper by default), started for the first
// bundle whose verdict the store lacks and closed when the run ends. A
// run whose rules never need the suites, or whose store holds every
// verdict, starts nothing. A validator that cannot start or answer
// fails the run: the first such error is kept, the bundles after it are
// not validated, and Lint returns it. Safe for bundles linted at once.
type osdkRunner struct {
	ctx   context.Context
	start func(context.Context) (suites.Validator, error)
	store *suites.Store

	started sync.Once
	v       suites.Validator

	mu  sync.Mutex
	err error
}

// newOSDKRunner is the runner the options give for a run of ctx.
func newOSDKRunner(ctx context.Context, opts Options) *osdkRunner {
	o := &osdkRunner{ctx: ctx, start: opts.OSDK}
	if o.start == nil {
		o.start = startHelper
	}
	if opts.CacheDir != "" {
		o.store = &suites.Store{Dir: opts.CacheDir, Salt: opts.CacheSalt}
	}
	return o
}

// startHelper starts opm-osdk; when it is not installed, the error says
// how to install it, or to turn off the two rules that need it.
func startHelper(ctx context.Context) (suites.Validator, error) {
	c, err := suites.Start(ctx)
	var nf *suites.NotFoundError
	if errors.As(err, &nf) {
		return nil, option.Errorf(option.Lifts, "%w; or %s and %s turn off the two rules that need it", err,
			option.With{Name: optionDisable, Value: ruleOSDKOperatorHub}, option.With{Name: optionDisable, Value: ruleOSDKOperatorFramework})
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// validate is operator-sdk's verdict on the bundle: the one stored of
// the same content, else the validator's (then stored); nil once the
// validator failed.
func (o *osdkRunner) validate(b *suites.Bundle) *suites.Result {
	key := o.store.Key(b)
	if r, ok := o.store.Load(key); ok {
		return r
	}
	if o.failed() != nil {
		return nil
	}
	o.started.Do(func() {
		v, err := o.start(o.ctx)
		if err != nil {
			o.fail(err)
			return
		}
		o.v = v
	})
	if o.v == nil {
		return nil
	}
	r, err := o.v.Validate(b)
	if err != nil {
		o.fail(err)
		return nil
	}
	o.store.Save(key, r)
	return r
}

// fail keeps the first error of the validator.
func (o *osdkRunner) fail(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		o.err = err
	}
}

// failed is the validator's first error, nil if none (or no runner).
func (o *osdkRunner) failed() error {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// close ends the validator, if one started, once the run ended with err:
// the run's error is err, else the validator's first, else how it ended.
func (o *osdkRunner) close(err error) error {
	var closeErr error
	if o.v != nil {
		closeErr = o.v.Close()
	}
	switch {
	case err != nil:
		return err
	case o.ctx.Err() != nil:
		return o.ctx.Err()
	case o.failed() != nil:
		return o.failed()
	}
	return closeErr
}
