// Package baseline is what lint compares a change with: the linted paths
// as they were before it, a directory or a git ref (New), and the
// matching of findings across the two (Mark).
//
// A git ref's copy is extracted with git archive into a temporary
// directory, but for the bundle directories and catalogs the work tree
// has as the ref has them (Unchanged): lint's run over the baseline
// reuses what its run over the change read and found in those, which the
// run over the change records in a Memo. Paths of the work tree map to
// where the baseline holds them (Real), so that the baseline is linted
// under the same names and its findings compare with the work tree's.
package baseline
