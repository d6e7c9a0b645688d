package declcfg_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// TestMemFSNotCopiedNorChanged loads files of a MemFS, which the loader
// reads without copying them: their bytes must be as they were (CRLF
// line ends, a byte order mark, JSON falling back to YAML, bad
// documents), and a binary file is still refused. (That they load as
// from disk, TestLoadBytesMatchesLoadFS checks.)
func TestMemFSNotCopiedNorChanged(t *testing.T) {
	files := map[string][]byte{
		"crlf/catalog.yaml":   []byte("---\r\nname: a\r\nschema: olm.package\r\n---\r\nname: b\r\nschema: olm.package\r\n"),
		"bom/catalog.yaml":    []byte("\xef\xbb\xbfname: c\nschema: olm.package\n"),
		"json/catalog.json":   []byte("{\"schema\": \"olm.package\", \"name\": \"d\"}\nname: e\nschema: olm.package\n"),
		"bad/catalog.yaml":    []byte("name: [f\nschema: olm.package\n---\n\t- x\n"),
		"binary/catalog.yaml": append([]byte("name: g\x00"), make([]byte, 100)...),
	}
	want := map[string][]byte{}
	for name, data := range files {
		want[name] = bytes.Clone(data)
	}
	fsys, err := declcfg.NewMemFS(files)
	if err != nil {
		t.Fatal(err)
	}
	_, err = declcfg.LoadFS(context.Background(), fsys, declcfg.WithConcurrency(1))
	if err == nil || !strings.Contains(err.Error(), "binary file") {
		t.Errorf("the binary file was not refused: %v", err)
	}
	for name, data := range files {
		if !bytes.Equal(data, want[name]) {
			t.Errorf("%s changed while loading: %q", name, data)
		}
	}
}
