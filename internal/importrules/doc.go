// Package importrules holds no code: its tests pin the shape of the
// module. Every top-level folder is a layer that imports only lower ones,
// in its code and in its tests (so the library stays usable without the
// command and the catalog model stays light), docs/design.md's layer
// table agrees, no public package's exported API names an internal type,
// internal/ stays small, and no hand-written function or file grows past
// the limits of size_test.go.
package importrules
