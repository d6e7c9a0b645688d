//go:build race

package declcfg_test

// raceDetector is set when the race detector slows everything down.
const raceDetector = true
