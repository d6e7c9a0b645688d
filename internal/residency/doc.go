// Package residency gives back memory the process no longer needs: the
// pages of the executable's code that only start-up ran. Every opm links
// the Kubernetes API server's libraries (through operator-framework/api's
// validators, for lint's operator-sdk suites), and Go runs the
// initialisers of every linked package before main, whatever the command:
// they leave about 30 MB of the 74 MB executable resident, which a
// command that reads a small catalog would otherwise carry to its end,
// and a catalog server for as long as it runs.
package residency
