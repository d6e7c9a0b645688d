// Package crdcompat compares two CustomResourceDefinitions as OLM does
// before it upgrades one to the other, and lists the unsafe changes
// (Change): what OLM v0 refuses (a stored version removed, the scope
// changed) and what OLM v1's CRD upgrade-safety preflight
// (operator-controller's crdupgradesafety, which runs sigs.k8s.io/crdify)
// refuses besides: in a version both have, a field removed or, field by
// field, its type changed, an enum added or values taken out of one (or
// the enum removed), a required field added, a maximum added or lowered,
// a minimum added or raised, a default added, removed or changed, the
// format changed, the set of oneOf schemas changed or its schemas
// reordered (oneof.go), any change under a member crdify compares with
// its field as a whole (a map's additionalProperties, allOf, anyOf, not,
// ...: unhandled.go), or anything else the preflight has no rule for
// (it fails closed: pattern, nullable, CEL rules, ...); and, in a new CRD
// without a conversion webhook, served versions that differ in those
// ways where the old CRD's did not, or by two or more new required fields
// (crdify matches those with the old CRD's only by chance: served.go).
// Description changes and added enum values are safe. Schemas are
// compared as Kubernetes decodes them (canonical.go), walked node by node
// (walk.go) with crdify's rule for each node (schema.go).
//
// It reads CRD trees (encoding/value) and knows nothing of bundles or of
// the findings lint makes of the changes. Pairs remembers the changes of
// each pair compared by the sums of their content, so that an upgrade
// edge met in several catalogs is compared once; Precompare compares
// neighbours of a list while both are in memory.
package crdcompat
