// Package catalogrepotest is what tests of a catalog repository share:
// Copy gives a test its own copy of a repository (the project's
// testdata/repo) to change, and WriteLintRepo writes operator directories
// made of real bundles for lint's tests and benchmarks: the versions of
// an operator are copies of a real registry+v1 bundle directory whose
// CRDs change from one version to the next as real operators' do, and
// its catalogs are rendered from them as the community pipeline renders
// them. It sits under catalogrepo, below both author and lint, so that
// either may use it; the synthetic repositories of the authoring
// benchmarks, which author renders, are author/authortest's.
package catalogrepotest
