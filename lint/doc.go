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
// that causes it. Each rule is a small unit with an entry in the table
// Rules returns. The package reads only the file system (and runs git for
// a baseline given as a git ref), except that image references are pulled
// through the renderer the caller passes.
package lint
