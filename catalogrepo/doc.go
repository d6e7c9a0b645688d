// Package catalogrepo is a catalog repository as its files say, the
// model the catalog verbs (author) edit and lint reads: an operator
// directory (operators/<pkg>/) holds ci.yaml, whose fbc.catalog_mapping
// maps catalog templates (catalog-templates/*.yaml, basic or semver) to
// the catalogs rendered from them (catalogs/<v4.x>/<pkg>/catalog.yaml),
// and one directory per bundle version, with a release-config.yaml
// saying where the bundle is released.
//
// Repo.Open reads an operator directory as a Package: its ci.yaml (see
// repoconfig), the templates it maps and their committed catalogs,
// loaded and validated; it refuses a repository that a killed write left
// half-written (see stage). A Package answers the lookups and listings
// both need: its bundles by name, image and version, the names its
// templates hold, the lines a template names its bundles and entries at
// (Template.Lines), and what a release-config.yaml is checked against
// (ReleaseFacts). What the repository lacks or what was asked that it
// does not have is a Refusal, with "did you mean" for a name that is
// not there; a directory that is no repository is a NotRepositoryError.
// Nothing here writes: the verbs edit templates with yamledit and write
// with stage.
package catalogrepo
