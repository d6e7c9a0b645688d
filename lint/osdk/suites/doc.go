// Package suites is what lint needs to talk about operator-sdk's two
// suites (see lint/osdk) without linking them: the suites, the outputs
// and results, the bundle validated, the Store of results by bundle
// content, and the protocol to the helper that runs them (wire.go): the
// opm-osdk executable (cmd/opm-osdk), which Locate finds and Start
// starts, one per lint run, and Client speaks to. Serve is the helper's
// side of the protocol.
//
// The validators are operator-framework/api's, which pull in the
// Kubernetes API server's libraries: hundreds of packages whose
// initialisers Go runs before main in every program that links them,
// whatever the command (tens of milliseconds and megabytes at every
// start of opm). In a second executable, only a lint run that validates
// a bundle pays them, once. This package imports nothing of Kubernetes
// nor of operator-framework; lint/osdk, which holds the validators, is
// linked only into opm-osdk (and into tests, in process: lint/osdk's
// InProcess).
package suites
