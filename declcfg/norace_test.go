//go:build !race

package declcfg_test

const raceDetector = false
