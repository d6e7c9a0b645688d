//go:build unix

package declcfg

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLoadRefusesSpecialFiles checks that named pipes and devices, in the
// catalog or as .indexignore, are refused without being opened: opening a
// pipe would wait for a writer forever, reading /dev/zero would never end.
// Listed in .indexignore, they are not looked at.
func TestLoadRefusesSpecialFiles(t *testing.T) {
	tests := []struct {
		name  string
		files []entry
		want  map[string]string // file -> message substring
	}{
		{"fifo", []entry{{name: "pipe.json", fifo: true}},
			map[string]string{"pipe.json": "this is a named pipe (FIFO), not a regular file; opm reads only regular files and did not open it: remove it, or list it in .indexignore"}},
		{"link to a device", []entry{{name: "zero.json", link: "/dev/zero"}},
			map[string]string{"zero.json": "this is a character device, not a regular file"}},
		{"link to a fifo", []entry{{name: "pipe", fifo: true}, {name: "link.yaml", link: "pipe"}, {name: ".indexignore", data: "/pipe\n"}},
			map[string]string{"link.yaml": "named pipe"}},
		{"fifo listed in .indexignore", []entry{{name: "sub/pipe.json", fifo: true}, {name: ".indexignore", data: "pipe.json\n"}},
			nil},
		{".indexignore is a fifo", []entry{{name: "sub/.indexignore", fifo: true}},
			map[string]string{"sub/.indexignore": "this is a named pipe (FIFO), not a regular file; opm reads only regular files and did not open it: make .indexignore a regular file"}},
		{".indexignore links to /dev/zero", []entry{{name: ".indexignore", link: "/dev/zero"}},
			map[string]string{".indexignore": "character device"}},
		{".indexignore over the limit", []entry{{name: ".indexignore", data: strings.Repeat("x\n", 100)}},
			map[string]string{".indexignore": "larger than the 100-byte limit for a catalog file; an .indexignore file holds patterns, one a line: shorten it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, e := range append(tt.files, entry{name: "ok.json", data: `{"schema":"x.y"}`}) {
				e.make(t, dir)
			}
			cfg, err := LoadFS(context.Background(), os.DirFS(dir), WithMaxFileSize(100))
			var errs ErrorList
			if err != nil && !errors.As(err, &errs) {
				t.Fatal(err)
			}
			if len(errs) != len(tt.want) {
				t.Fatalf("errors: %v, want %d", errs, len(tt.want))
			}
			for _, e := range errs {
				if w, ok := tt.want[e.File]; !ok || !strings.Contains(e.Message, w) {
					t.Errorf("error %v, want %q", e, w)
				}
			}
			if len(cfg.Others) != 1 {
				t.Errorf("loaded %d objects, want the readable one", len(cfg.Others))
			}
		})
	}
}

// entry is a file for a test to make: a named pipe, a link or a regular
// file with data.
type entry struct {
	name, link, data string
	fifo             bool
}

func (e entry) make(t *testing.T, dir string) {
	t.Helper()
	p := filepath.Join(dir, e.name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	var err error
	switch {
	case e.fifo:
		err = syscall.Mkfifo(p, 0o644)
	case e.link != "":
		err = os.Symlink(e.link, p)
	default:
		err = os.WriteFile(p, []byte(e.data), 0o644)
	}
	switch {
	case err != nil && (e.fifo || e.link != ""):
		t.Skip("cannot make", e.name, err)
	case err != nil:
		t.Fatal(err)
	}
}
