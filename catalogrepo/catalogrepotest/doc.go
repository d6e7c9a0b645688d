// Package catalogrepotest writes operator directories of a catalog
// repository made of real bundles, for lint's tests and benchmarks (see
// WriteLintRepo): the versions of an operator are copies of a real
// registry+v1 bundle directory whose CRDs change from one version to the
// next as real operators' do, and its catalogs are rendered from them as
// the community pipeline renders them. It sits under catalogrepo, below
// both author and lint, so that either may use it; the synthetic
// repositories of the authoring benchmarks, which author renders, are
// author/authortest's.
package catalogrepotest
