// Package residency gives back memory the process no longer needs: the
// pages of the executable's code that only start-up ran. Go runs the
// initialisers of every linked package before main, whatever the
// command, and they leave pages of the executable resident that a
// command reading a small catalog would otherwise carry to its end, and
// a catalog server for as long as it runs: about 9 MB of validate's peak
// on a 15 MB catalog. (The largest set of initialisers, the Kubernetes
// API server's libraries that lint's operator-sdk suites link, is no
// longer opm's: those run in opm-osdk.)
package residency
