// Package suites is what lint needs to talk about operator-sdk's two
// suites (see lint/osdk) without linking them: the suites, the outputs
// and results, the bundle validated, and the Store of results by bundle
// content. It imports nothing of Kubernetes nor of operator-framework,
// whose validators (lint/osdk) pull in the Kubernetes API server's
// libraries.
package suites
