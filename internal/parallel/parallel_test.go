package parallel

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

func TestDoRunsEveryIndexWithinTheLimit(t *testing.T) {
	var running, most, calls atomic.Int32
	seen := make([]atomic.Bool, 50)
	err := Do(context.Background(), 50, 3, func(i int) error {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		seen[i].Store(true)
		calls.Add(1)
		running.Add(-1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 50 {
		t.Errorf("%d calls, want 50", calls.Load())
	}
	for i := range seen {
		if !seen[i].Load() {
			t.Errorf("index %d was not called", i)
		}
	}
	if most.Load() > 3 {
		t.Errorf("%d calls at once, want at most 3", most.Load())
	}
}

func TestDoReturnsTheFirstErrorInInputOrder(t *testing.T) {
	for range 20 {
		// index 7 fails at once, index 2 (started earlier) fails later:
		// the error is index 2's whatever the timing.
		err := Do(context.Background(), 30, 4, func(i int) error {
			switch i {
			case 2:
				time.Sleep(5 * time.Millisecond)
				return errors.New("two")
			case 7:
				return errors.New("seven")
			}
			return nil
		})
		if err == nil || err.Error() != "two" {
			t.Fatalf("got %v, want two", err)
		}
	}
}

func TestDoStopsStartingAfterAFailure(t *testing.T) {
	var calls atomic.Int32
	err := Do(context.Background(), 100, 1, func(i int) error {
		calls.Add(1)
		if i == 3 {
			return errors.New("three")
		}
		return nil
	})
	if err == nil || calls.Load() != 4 {
		t.Errorf("got %v after %d calls, want three after 4", err, calls.Load())
	}
}

func TestDoAllReportsEveryFailureInOrder(t *testing.T) {
	var calls atomic.Int32
	err := DoAll(context.Background(), 10, 4, func(i int) error {
		calls.Add(1)
		if i%3 == 0 {
			time.Sleep(time.Duration(10-i) * time.Millisecond)
			return fmt.Errorf("index %d", i)
		}
		return nil
	})
	if calls.Load() != 10 {
		t.Errorf("%d calls, want 10", calls.Load())
	}
	want := "index 0\nindex 3\nindex 6\nindex 9"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestDoStopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	err := Do(ctx, 100, 1, func(i int) error {
		if calls.Add(1) == 5 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || calls.Load() != 5 {
		t.Errorf("got %v after %d calls, want context.Canceled after 5", err, calls.Load())
	}
	if err := Do(ctx, 0, 1, func(int) error { return nil }); err != nil {
		t.Errorf("no indexes: %v", err)
	}
}

func TestDoWithGivesEachWorkerItsOwnState(t *testing.T) {
	var made atomic.Int32
	type state struct{ calls int } // not shared: no lock
	var total atomic.Int32
	err := DoWith(context.Background(), 40, 3, func() *state {
		made.Add(1)
		return &state{}
	}, func(s *state, i int) error {
		s.calls++
		total.Add(1)
		time.Sleep(time.Millisecond)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if made.Load() < 1 || made.Load() > 3 || total.Load() != 40 {
		t.Errorf("%d states for %d calls, want 1 to 3 for 40", made.Load(), total.Load())
	}
	// A worker that takes no index makes no state.
	made.Store(0)
	if err := DoWith(context.Background(), 1, 8, func() *state { made.Add(1); return &state{} }, func(*state, int) error { return nil }); err != nil || made.Load() != 1 {
		t.Errorf("one index, %d states (%v), want 1", made.Load(), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	made.Store(0)
	err = DoWith(ctx, 5, 2, func() *state { made.Add(1); return &state{} }, func(*state, int) error { return nil })
	if !errors.Is(err, context.Canceled) || made.Load() != 0 {
		t.Errorf("ended context: %v, %d states, want context.Canceled and none", err, made.Load())
	}
}
