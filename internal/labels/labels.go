// Package labels names the labels of OLM's catalog and bundle images. A
// bundle's metadata/annotations.yaml repeats the bundle labels as
// annotations, under the same names.
package labels

// The labels and annotations.
const (
	// Configs names the directory of the catalog in a catalog image.
	Configs = "operators.operatorframework.io.index.configs.v1"
	// Database marks a SQLite-based index image, no longer supported.
	Database = "operators.operatorframework.io.index.database.v1"
	// Package is the package of a bundle.
	Package = "operators.operatorframework.io.bundle.package.v1"
	// Channels lists, comma-separated, the channels of a bundle.
	Channels = "operators.operatorframework.io.bundle.channels.v1"
	// DefaultChannel is the default channel of a bundle's package.
	DefaultChannel = "operators.operatorframework.io.bundle.channel.default.v1"
	// MediaType is the format of a bundle, such as registry+v1.
	MediaType = "operators.operatorframework.io.bundle.mediatype.v1"
)
