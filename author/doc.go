// Package author edits catalog repositories the way maintainers and the
// community release pipelines do: an operator directory
// (operators/<pkg>/) holds ci.yaml, whose fbc.catalog_mapping maps
// catalog templates (catalog-templates/*.yaml, basic or semver) to the
// catalogs rendered from them (catalogs/<v4.x>/<pkg>/catalog.yaml), and
// one directory per bundle version, with a release-config.yaml saying
// where the bundle is released. The repository is read as catalogrepo
// reads it (lint reads it so too); author adds the verbs.
//
// Every verb is a method of the Package it edits, taking its request and
// the same Options: Release (open the package of a bundle directory with
// Repo.OpenBundleDir), Promote, Remove, Deprecate, SetDefaultChannel and
// Expand; Repo.Expand expands (or checks) several operators at once. A
// request is checked by its Validate, which the verb calls. A verb edits
// the templates in place, changing only the text of the nodes it changes
// (see catalogrepo/yamledit), expands again exactly the templates it
// changed into the catalogs mapped to them, and returns the changed files
// as a Plan: nothing is written until Plan.Apply, which writes every file
// or none (see catalogrepo/stage). Expanding a template into a catalog
// (what the command line calls rendering it) is offline: a bundle a
// template names keeps the content a committed catalog already holds for
// its image; a released bundle is rendered from its directory. Every
// catalog in a plan passes validation, and a catalog that no longer
// matches its template (a hand edit) is not overwritten unless forced.
package author
