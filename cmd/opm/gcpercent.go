package main

import (
	"os"
	"runtime/debug"
)

// validateGCPercent is the garbage collector's target while validate
// runs: the heap may grow to three times what is live before a
// collection, instead of twice. validate reads a whole catalog into trees
// it drops object by object, and at Go's default it collects often for
// little: on catalogs/v4.20, GOGC=200 takes 13% off its time for 7 MB of
// peak memory (35 to 42 MB, against upstream's 113 MB). See
// docs/performance.md.
const validateGCPercent = 200

// withGCPercent sets the collector's target to percent, unless the user
// set GOGC, and returns what puts it back.
func withGCPercent(percent int) (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}
