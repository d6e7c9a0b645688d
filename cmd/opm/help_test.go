package main

import (
	"io/fs"
	"os"
	"strings"
	"testing"
)

// Every help file is some command's, and every command's help file
// exists.
func TestHelpFiles(t *testing.T) {
	var src strings.Builder
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			b, err := os.ReadFile(e.Name())
			if err != nil {
				t.Fatal(err)
			}
			src.Write(b)
		}
	}
	files, err := fs.Glob(helpFiles, "help/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no help files: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt")
		if !strings.Contains(src.String(), `helpText("`+name+`")`) {
			t.Errorf("%s is no command's help", f)
		}
		if helpText(name) == "" {
			t.Errorf("%s is empty", f)
		}
	}
}
