//go:build !linux

package declcfg

import "io/fs"

// mapping is a mapped file; files are mapped on Linux only.
type mapping struct{ data []byte }

// mapFile maps files on Linux only; elsewhere they are read.
func mapFile(fs.File, int64) (m *mapping, ok bool) { return nil, false }

func (m *mapping) consumed(int) {}

func (m *mapping) close() {}
