// Package osdk says what `operator-sdk bundle validate -o json-alpha1`
// prints for a registry+v1 bundle directory with the operatorhub
// (--select-optional name=operatorhub) and the operatorframework
// (--select-optional suite=operatorframework) optional suites, given a
// Kubernetes version (--optional-values=k8s-version=1.N): the outputs,
// each an error or a warning with its message, and the file and line
// each one is about. The hosted pipeline of the community repositories
// runs those two commands (operator-pipelines' check_osdk_bundle_validate_*
// checks, with operator-sdk v1.36.1) and turns each output into a
// failure or a warning.
//
// The validators are operator-framework/api's (pkg/validation), the
// library operator-sdk runs. Operator-sdk loads the bundle with that
// library's manifests.GetBundleFromDir; this package builds the same
// manifests.Bundle from the bundle directory as registryv1 read it for
// lint (load.go), so that each manifest is read once, and stops where
// the loader would stop (then operator-sdk exits without printing JSON:
// suites.Result.Stopped). What operator-sdk checks itself, and what it runs
// from operator-registry (the bundle format: annotations and
// dependencies), is written here (content.go, format.go). The
// annotations file is registryv1's: operator-sdk reads
// metadata/annotations.yaml by name and operator-registry's format check
// the first file with an annotations map, which is the same file unless
// another file of metadata/ holds annotations too.
//
// Both suites come from one load: the validators operator-sdk always
// runs print the same outputs in both (suites.Result.Default). The CRD
// validator's verdict and the compressed size of a manifest depend on
// the file's content only, and a Cache keeps them by its sum across the
// bundles of a run: they are the costly part.
//
// The validators link the Kubernetes API server's libraries, whose
// initialisers every program that links them runs at start: this
// package is linked only into opm-osdk (cmd/opm-osdk), whose main is
// Serve, and lint speaks to it through lint/osdk/suites, which holds the
// types of results and bundles this package answers with. InProcess runs
// Serve in the same process, for tests.
package osdk
