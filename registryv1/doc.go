// Package registryv1 reads registry+v1 operator bundles (a manifests/ and
// a metadata/ directory) and turns them into olm.bundle blobs exactly as
// upstream opm renders them: the same properties in the same order, the
// same related images, the Kubernetes objects as olm.bundle.object
// properties.
//
// It is the one reader of a bundle directory. Read (or ReadSkimmed, for
// a reader that needs little of most manifests) reads each file of
// manifests/ and metadata/ once: the first document of every regular,
// non-hidden file of manifests/, with the file and line of its object,
// and every file of metadata/. Parse makes a bundle of those files as
// upstream opm does; lint, olmv1 and lint/osdk take the same Files and
// read them as the tool they speak for does (operator-controller reads
// every document and refuses a subdirectory; operator-sdk refuses hidden
// files and subdirectories).
//
// The annotations file is the first file of metadata/, in name order and
// whatever its name, whose first document has an annotations map setting
// the package (operators.operatorframework.io.bundle.package.v1), the
// channels or the default channel: the file upstream opm (operator-
// registry's bundle parser) takes, and so the annotations a catalog
// carries. The dependencies and properties files are likewise the first
// with a non-empty dependencies or properties list. For the layout every
// tool writes and reads by name, metadata/annotations.yaml, operator-sdk,
// operator-registry's format check and the hosted pipeline (which read
// that file by name, or the first file with any annotations map) agree
// with it; a metadata/ directory holding annotations in another file
// that sorts first is read as opm reads it.
//
// Symbolic links are followed; a subdirectory of manifests/ and a name
// starting with "." there are skipped, as upstream does, and left to the
// readers that refuse them. A file that cannot be read is an error naming
// it (upstream skips it with a warning, which would hide a missing CSV);
// what the files hold is judged by their readers (Parse's errors name the
// file and, where one is known, the line).
package registryv1
