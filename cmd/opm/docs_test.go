package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// The command reference in docs/reference is generated from the command
// tree with cobra's markdown generator, one file per command, and checked
// here: TestReferenceDocs fails when it differs from what the commands
// say. `make docs` (this test with -update-docs) rewrites it.

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/reference from the command tree")

// referenceDir is where the command reference is kept, from cmd/opm.
const referenceDir = "../../docs/reference"

// referenceHeader starts every generated file.
const referenceHeader = "<!-- Generated from the command tree by `make docs`; do not edit. -->\n\n"

// referenceDocs renders the reference of every command as --help shows it
// with HELP_ALPHA=true: alpha commands and alpha-* flags included, hidden
// and deprecated flags and commands left out. The result is keyed by file
// name and depends on nothing but the command definitions: not on the
// caller's environment, the terminal or the build.
func referenceDocs(t *testing.T) map[string][]byte {
	t.Helper()
	// The environment the commands read while they are built.
	t.Setenv("HELP_ALPHA", "true")
	root := newRootCmd()
	// cobra adds these when a command line runs; the reference shows them
	// as --help does.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	root.DisableAutoGenTag = true // no date line

	docs := map[string][]byte{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.DisableAutoGenTag = true
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
				walk(sub)
			}
		}
		var buf bytes.Buffer
		buf.WriteString(referenceHeader)
		if err := doc.GenMarkdownCustom(c, &buf, func(link string) string { return link }); err != nil {
			t.Fatalf("%s: %v", c.CommandPath(), err)
		}
		docs[referenceFile(c)] = buf.Bytes()
	}
	walk(root)
	return docs
}

// referenceFile is the name of a command's file, as cobra's generator
// names it and links to it: opm_alpha_list.md.
func referenceFile(c *cobra.Command) string {
	return strings.ReplaceAll(c.CommandPath(), " ", "_") + ".md"
}

// committedDocs reads the markdown files of docs/reference.
func committedDocs(t *testing.T) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(referenceDir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	docs := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(referenceDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		docs[e.Name()] = b
	}
	return docs
}

func TestReferenceDocs(t *testing.T) {
	want := referenceDocs(t)
	if _, ok := want["opm_alpha_list_bundles.md"]; !ok {
		t.Fatalf("the reference has no alpha commands: %v", sortedKeys(want))
	}
	got := committedDocs(t)
	if *updateDocs {
		if err := os.MkdirAll(referenceDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				if err := os.Remove(filepath.Join(referenceDir, name)); err != nil {
					t.Fatal(err)
				}
			}
		}
		for name, b := range want {
			if !bytes.Equal(got[name], b) {
				if err := os.WriteFile(filepath.Join(referenceDir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		return
	}
	var stale []string
	for _, name := range sortedKeys(want) {
		if b, ok := got[name]; !ok {
			stale = append(stale, name+" (missing)")
		} else if !bytes.Equal(b, want[name]) {
			stale = append(stale, name+" (differs)")
		}
	}
	for _, name := range sortedKeys(got) {
		if _, ok := want[name]; !ok {
			stale = append(stale, name+" (no such command)")
		}
	}
	if len(stale) > 0 {
		t.Fatalf("docs/reference is stale: run make docs\n\t%s", strings.Join(stale, "\n\t"))
	}
}

// TestReferenceDocsStable checks that the reference depends on the command
// definitions alone: built twice, with the caller's environment changed
// in between, it is the same.
func TestReferenceDocsStable(t *testing.T) {
	first := referenceDocs(t)
	for k, v := range map[string]string{
		"HELP_ALPHA": "false", "HOME": t.TempDir(), "COLUMNS": "20", "TERM": "dumb",
		"OLM_CACHE_DIR": t.TempDir(), "TMPDIR": t.TempDir(), "SOURCE_DATE_EPOCH": "1",
	} {
		t.Setenv(k, v)
	}
	second := referenceDocs(t)
	if len(first) != len(second) {
		t.Fatalf("%d files, then %d", len(first), len(second))
	}
	for name, b := range first {
		if !bytes.Equal(b, second[name]) {
			t.Errorf("%s differs when the environment changes", name)
		}
	}
	// Hidden and deprecated flags stay out of it.
	for name, flags := range map[string][]string{
		"opm.md":                     {"skip-tls", "debug"},
		"opm_render.md":              {"skip-tls"},
		"opm_generate_dockerfile.md": {"binary-image"},
		"opm_alpha_bundle_unpack.md": {"skip-tls"},
	} {
		for _, f := range flags {
			if regexp.MustCompile(`(?m)^\s*(-\w, )?--` + f + `\s`).Match(first[name]) {
				t.Errorf("%s shows the hidden flag --%s", name, f)
			}
		}
	}
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
