// Package template expands OLM catalog templates into file-based catalogs
// and converts catalogs back into templates, as upstream opm's
// `alpha render-template` and `alpha convert-template` do:
//
//   - basic (schema olm.template.basic): catalog objects passed through,
//     with olm.bundle entries that give only an image rendered from it;
//   - semver (schema olm.semver): bundle images listed under Candidate,
//     Fast and Stable, from which the package, major and/or minor version
//     channels, their upgrade edges and the default channel are generated;
//   - substitutes (schema olm.template.substitutes): a catalog in which
//     bundles are replaced by newer builds of themselves (substitutes),
//     rewiring the upgrade edges around them.
//
// The output is the one upstream produces for the same template and bundle
// images, byte for byte once written by package declcfg. Where upstream's
// result depends on Go map order, this package follows the template's
// order instead, and it reports what upstream loops on or ignores
// (substitution cycles, keys that differ only in case). Every problem
// names the template file, the line and the entry it concerns.
//
// Bundles are rendered through a BundleRenderer, normally a
// render.Renderer restricted to bundle images, as upstream's templates can
// reference bundle images only.
package template
