package main

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/template"
)

// Every help file is some command's (by its helpName), and none is
// empty.
func TestHelpFiles(t *testing.T) {
	names := map[string]bool{}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		n := helpName(c)
		names[n], names[n+".example"], names[n+".alpha"] = true, true, true
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	files, err := fs.Glob(helpFiles, "help/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no help files: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt")
		if !names[name] {
			t.Errorf("%s is no command's help", f)
		}
		if helpText(name) == "" {
			t.Errorf("%s is empty", f)
		}
	}
}

// The help of render-template lists every template type.
func TestRenderTemplateHelpKinds(t *testing.T) {
	for _, k := range template.Kinds() {
		if !strings.Contains(helpText("render-template"), "\n - "+string(k)+"\n") {
			t.Errorf("render-template's help does not list %s", k)
		}
	}
}
