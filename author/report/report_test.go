package report

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/internal/suggest"
	"github.com/fbcat/opm/option"
)

var words = map[option.Name]string{"author.Options.Pull": "--pull", "author.Repo.Expand": "opm render %s --dry-run"}

func plan() *author.Plan {
	return &author.Plan{
		Changes: []author.FileChange{{Path: "catalogs/v4.18/w/catalog.yaml", Kind: author.KindCatalog, Created: true},
			{Path: "operators/w/catalog-templates/basic.yaml", Kind: author.KindTemplate}},
		Summary:    "released w.v1.2.0",
		Notes:      []string{"channel fast is new"},
		Incomplete: []*option.Error{option.Lifting("no icon", ": pass %s", option.Name("author.Options.Pull"))},
	}
}

// TestWrite: a plan's files and summary, its notes on errOut with what
// it lacks said in the caller's words; JSON says the same.
func TestWrite(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := Write(&out, &errOut, plan(), Options{Words: words}); err != nil {
		t.Fatal(err)
	}
	if want := "created catalogs/v4.18/w/catalog.yaml\nupdated operators/w/catalog-templates/basic.yaml\nreleased w.v1.2.0\n"; out.String() != want {
		t.Errorf("out %q, want %q", out.String(), want)
	}
	if want := "note: channel fast is new\nnote: no icon: pass --pull\n"; errOut.String() != want {
		t.Errorf("errOut %q, want %q", errOut.String(), want)
	}
	out.Reset()
	if err := Write(&out, &errOut, plan(), Options{JSON: true, DryRun: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"dryRun": true`, `"action": "created"`, `"kind": "template"`, `"no icon: pass Options.Pull"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("JSON does not say %s:\n%s", want, out.String())
		}
	}
	out.Reset()
	errOut.Reset()
	if err := Write(&out, &errOut, &author.Plan{Summary: "nothing"}, Options{DryRun: true}); err != nil || out.Len() != 0 || errOut.String() != "nothing (dry run: nothing written)\n" {
		t.Errorf("an empty dry run: %q %q %v", out.String(), errOut.String(), err)
	}
}

// TestWriteDrift: each catalog that differs, where and what, and the
// conflicts; JSON says whether the check passed.
func TestWriteDrift(t *testing.T) {
	p := plan()
	res := &author.Expansion{Plan: p, Conflicts: []string{"bundle w.v1 differs between v4.17 and v4.18"},
		Differences: []author.Difference{{Path: "operators/w/catalog-templates/basic.yaml", Line: 3, What: "a comment"}}}
	var out, errOut bytes.Buffer
	if err := WriteDrift(&out, &errOut, res, Options{Words: words}); err != nil {
		t.Fatal(err)
	}
	want := "catalogs/v4.18/w/catalog.yaml: is missing: its template maps to it\n" +
		"operators/w/catalog-templates/basic.yaml:3: differs from what its template renders: a comment\n" +
		"bundle w.v1 differs between v4.17 and v4.18 (edited by hand?)\n"
	if out.String() != want {
		t.Errorf("out %q, want %q", out.String(), want)
	}
	if !strings.HasSuffix(errOut.String(), "note: see the difference with opm render --dry-run, then fix the templates or render them\n") {
		t.Errorf("errOut %q", errOut.String())
	}
	out.Reset()
	if err := WriteDrift(&out, &errOut, res, Options{JSON: true}); err != nil || !strings.Contains(out.String(), `"passed": false`) || !strings.Contains(out.String(), `"line": 3`) {
		t.Errorf("JSON: %s %v", out.String(), err)
	}
	errOut.Reset()
	WriteConflicts(&errOut, res)
	if !strings.HasPrefix(errOut.String(), "warning: bundle w.v1 differs") {
		t.Errorf("conflicts: %q", errOut.String())
	}
}

// TestWriteFailure: with JSON, a failed verb's document, with the names
// there are and those meant for a name the repository does not have.
func TestWriteFailure(t *testing.T) {
	var out bytes.Buffer
	if err := WriteFailure(&out, errors.New("x"), "x", false, Options{}); err != nil || out.Len() != 0 {
		t.Errorf("text: %q %v", out.String(), err)
	}
	err := fmt.Errorf("opening: %w", &suggest.Unknown{Kind: "operator", Name: "wdget", Problem: "no operator wdget", Near: []string{"widget"}, Known: []string{"gadget", "widget"}})
	if err := WriteFailure(&out, err, err.Error(), true, Options{JSON: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"refused": true`, `"didYouMean": [`, `"names": [`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("does not say %s:\n%s", want, out.String())
		}
	}
}
