// Package importrules holds no code: its test pins which packages each
// package of the module may depend on, so that the library stays usable
// without the command and the catalog model stays light.
package importrules
