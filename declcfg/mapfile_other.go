//go:build !linux

package declcfg

import "io/fs"

// mapFile maps files on Linux only; elsewhere they are read.
func mapFile(fs.File, int64) (data []byte, unmap func(), ok bool) { return nil, nil, false }
