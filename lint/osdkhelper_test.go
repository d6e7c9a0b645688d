package lint

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fbcat/opm/lint/osdk"
	"github.com/fbcat/opm/lint/osdk/suites"
	"github.com/fbcat/opm/option"
)

// countingOSDK starts the suites in process, counting starts, requests
// and closes.
type countingOSDK struct {
	mu                        sync.Mutex
	starts, validated, closes int
}

func (c *countingOSDK) start(ctx context.Context) (suites.Validator, error) {
	v, err := osdk.InProcess(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.starts++
	return &counted{Validator: v, c: c}, err
}

type counted struct {
	suites.Validator
	c *countingOSDK
}

func (v *counted) Validate(b *suites.Bundle) (*suites.Result, error) {
	v.c.mu.Lock()
	v.c.validated++
	v.c.mu.Unlock()
	return v.Validator.Validate(b)
}

func (v *counted) Close() error {
	v.c.mu.Lock()
	v.c.closes++
	v.c.mu.Unlock()
	return v.Validator.Close()
}

// The validator starts for the first bundle whose verdict is not stored,
// once per run, and is closed when the run ends; a run whose rules do
// not need it, or whose store holds every verdict, starts none.
func TestOSDKStartedOnce(t *testing.T) {
	root := copyRepo(t)
	widget := filepath.Join(root, "operators", "widget")
	cache := t.TempDir()
	var c countingOSDK
	opts := Options{Released: ReleasedCheck, CacheDir: cache, CacheSalt: "test", OSDK: c.start}
	first := run(t, []string{widget}, opts)
	if c.starts != 1 || c.closes != 1 || c.validated != 4 {
		t.Fatalf("started %d, validated %d, closed %d: want 1, 4 (the bundle directories), 1", c.starts, c.validated, c.closes)
	}
	again := run(t, []string{widget}, opts)
	if c.starts != 1 || c.validated != 4 {
		t.Errorf("every verdict stored: started %d more, validated %d more", c.starts-1, c.validated-4)
	}
	if dump(only(first.Findings, ruleOSDKOperatorHub)) != dump(only(again.Findings, ruleOSDKOperatorHub)) || len(only(first.Findings, ruleOSDKOperatorHub)) == 0 {
		t.Errorf("stored verdicts say otherwise:%s\nthan made ones:%s", dump(again.Findings), dump(first.Findings))
	}
	opts.CacheDir, opts.Disable = "", []string{ruleOSDKOperatorHub, ruleOSDKOperatorFramework}
	run(t, []string{widget}, opts)
	if c.starts != 1 {
		t.Errorf("started for a run without the rules")
	}
}

// A validator that cannot start, fails a bundle or ends badly fails the
// run, with its error: no finding is left out in silence.
func TestOSDKFails(t *testing.T) {
	widget := filepath.Join(copyRepo(t), "operators", "widget")
	broken := errors.New("opm-osdk stopped: exit status 2")
	for name, start := range map[string]func(context.Context) (suites.Validator, error){
		"start":    func(context.Context) (suites.Validator, error) { return nil, broken },
		"validate": func(context.Context) (suites.Validator, error) { return failing{validate: broken}, nil },
		"close":    func(context.Context) (suites.Validator, error) { return failing{close: broken}, nil },
	} {
		t.Run(name, func(t *testing.T) {
			res, err := Lint(context.Background(), []string{widget}, Options{Released: ReleasedCheck, OSDK: start})
			if !errors.Is(err, broken) || res != nil {
				t.Errorf("got %v, %v", res, err)
			}
		})
	}
}

// failing is a validator that fails as it is told, and else finds
// nothing.
type failing struct{ validate, close error }

func (f failing) Validate(*suites.Bundle) (*suites.Result, error) {
	if f.validate != nil {
		return nil, f.validate
	}
	return &suites.Result{}, nil
}

func (f failing) Close() error { return f.close }

// Without opm-osdk, a run that needs it says how to install it, or which
// option turns the two rules off.
func TestOSDKNotInstalled(t *testing.T) {
	t.Setenv(suites.EnvHelper, filepath.Join(t.TempDir(), "opm-osdk"))
	widget := filepath.Join(copyRepo(t), "operators", "widget")
	_, err := Lint(context.Background(), []string{widget}, Options{Released: ReleasedCheck})
	var oe *option.Error
	var nf *suites.NotFoundError
	if !errors.As(err, &oe) || oe.Kind != option.Lifts || !errors.As(err, &nf) ||
		!strings.HasSuffix(err.Error(), "; or Options.Disable osdk-operatorhub and Options.Disable osdk-operatorframework turn off the two rules that need it") ||
		!strings.HasPrefix(err.Error(), "$OPM_OSDK names ") {
		t.Errorf("got %v", err)
	}
	if _, err := Lint(context.Background(), []string{widget}, Options{Released: ReleasedCheck, Disable: []string{ruleOSDKOperatorHub, ruleOSDKOperatorFramework}}); err != nil {
		t.Errorf("without the rules: %v", err)
	}
}
