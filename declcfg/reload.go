package declcfg

import (
	"fmt"
	"io"
	"io/fs"

	"github.com/fbcat/opm/internal/fserr"
)

// ReloadBundle reads b's document again from fsys, the file system b was
// loaded from, with every property value: for callers that loaded a
// catalog WithoutBulkValues and need a bundle's objects later. The
// document must still hold the same bundle.
func ReloadBundle(fsys fs.FS, b *Bundle) (*Bundle, error) {
	data, err := readRange(fsys, b.Src)
	if err != nil {
		return nil, fmt.Errorf("%s: reading bundle %q again: %w", b.Src.Path, b.Name, err)
	}
	src := b.Src
	src.Off, src.End = 0, len(data)
	v, err := decodeDocument(data, src)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: reading bundle %q again: %w (did the catalog change since it was loaded?)", b.Src.Path, b.Src.Line, b.Name, err)
	}
	obj, merr := metaOf(&v)
	if merr == nil && (obj.Schema != SchemaBundle || obj.Name != b.Name || obj.Package != b.Package) {
		merr = &Error{Message: fmt.Sprintf("found %s %q of package %q instead", obj.Schema, obj.Name, obj.Package)}
	}
	if merr != nil {
		return nil, fmt.Errorf("%s:%d: reading bundle %q again: %s (did the catalog change since it was loaded?)", b.Src.Path, b.Src.Line, b.Name, merr.Message)
	}
	obj.Pos = b.Pos
	it, terr := typed(&obj, false)
	if terr != nil {
		return nil, fmt.Errorf("%s:%d: reading bundle %q again: %s", b.Src.Path, b.Src.Line, b.Name, terr.Message)
	}
	it.Bundle.Src = b.Src
	return it.Bundle, nil
}

// readRange reads the bytes of src's document, with one read where the
// file allows it.
func readRange(fsys fs.FS, src Source) ([]byte, error) {
	f, err := fsys.Open(src.Path)
	if err != nil {
		return nil, fserr.Cause(err)
	}
	defer f.Close()
	if src.Off < 0 || src.End < src.Off {
		return nil, fmt.Errorf("bad document range %d-%d", src.Off, src.End)
	}
	data := make([]byte, src.End-src.Off)
	if ra, ok := f.(io.ReaderAt); ok {
		if _, err := ra.ReadAt(data, int64(src.Off)); err != nil {
			return nil, fserr.Cause(err)
		}
		return data, nil
	}
	if _, err := io.CopyN(io.Discard, f, int64(src.Off)); err != nil {
		return nil, fserr.Cause(err)
	}
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fserr.Cause(err)
	}
	return data, nil
}
