// Package lint runs the checks catalog CI needs beyond validation: APIs a
// bundle uses that the Kubernetes versions of its target OpenShift
// releases no longer serve, bundles OLM v1 cannot install, CRD changes
// that make an upgrade unsafe, installs a change strands, OpenShift
// version ranges that are malformed or contradict the catalogs a bundle
// is in, deprecated default channels, upgrade edges that name no bundle,
// and the CSV fields the operator-framework validators and the community
// pipeline ask for.
//
// Lint takes catalog directories, registry+v1 bundle directories,
// operator directories of a catalog repository (operators/<pkg>/: its
// bundle directories and the catalogs its ci.yaml maps) and image
// references, and returns every finding, sorted, each at the file and line
// that causes it (a problem the catalogs of an operator directory share is
// one finding naming them, at the template line that names its bundle). The package reads only the file system (and runs git for
// a baseline given as a git ref), except that image references are pulled
// through the renderer the caller passes.
//
// This package is the engine and the rules; its rooms are:
//   - lint.go, baselinerun.go: Lint, and the second run over the baseline;
//   - walk.go, operatordir.go, bundledirs.go, catalog.go: the walk from
//     a path down to the two units rules run on, a bundle and a catalog,
//     every path read through the run's view (view.go);
//   - acrosscatalogs.go: the findings of an operator directory's
//     catalogs, one per problem across them, at their templates' lines;
//   - rules.go: the rule table; a file per rule (removedapi.go, olmv1.go,
//     crdupgrade.go, csvcrds.go, stranded.go, openshiftrange.go, graph.go,
//     csvfields.go, invalid.go), each a function of a bundle (bundleCheck)
//     or of one package of a catalog (packageCheck, check.go);
//   - bundle.go: a bundle as the rules read it (a directory's manifests or
//     a catalog's olm.bundle.object properties);
//   - config*.go: the target and the repository configuration
//     (.opm-lint.yaml).
//
// Beside it: lint/finding (the findings and their verdict, shared by
// every room), lint/crdcompat (the CRD compatibility engine),
// lint/baseline (what a change is compared with), lint/layout (what a
// directory is in a catalog repository), lint/pipeline (the hosted
// pipeline's offline checks, which pipeline.go and profile.go run on
// operator directories) and lint/report (text, JSON, SARIF and the
// pull-request markdown).
package lint
