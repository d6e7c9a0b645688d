package importrules

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// designDoc is the guide whose layer table must agree with layers.
var designDoc = filepath.Join("..", "..", "docs", "design.md")

// layerRow is one row of the layer table of docs/design.md.
type layerRow struct {
	line    int
	layer   int
	folders []string // the top-level folders the Folder column names
	text    string
}

// tableRow is a row of the layer table: | layer | folders | what |.
var tableRow = regexp.MustCompile(`^\|\s*(\d+)\s*\|([^|]*)\|(.*)\|\s*$`)

// codeSpan is a backquoted path of the Folder column.
var codeSpan = regexp.MustCompile("`([^`]+)`")

// layerTable reads the rows of the table under "## Layers" (the table
// ends at the first line that is no table row).
func layerTable(doc string) ([]layerRow, error) {
	_, after, ok := strings.Cut(doc, "\n## Layers\n")
	if !ok {
		return nil, errors.New("no \"## Layers\" section")
	}
	first := strings.Count(doc[:len(doc)-len(after)], "\n") + 1
	var rows []layerRow
	inTable := false
	for i, l := range strings.Split(after, "\n") {
		if !strings.HasPrefix(l, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		m := tableRow.FindStringSubmatch(l)
		if m == nil {
			continue // the header and its separator
		}
		n, _ := strconv.Atoi(m[1])
		row := layerRow{line: first + i, layer: n, text: l}
		for _, c := range codeSpan.FindAllStringSubmatch(m[2], -1) {
			top, _, _ := strings.Cut(c[1], "/")
			row.folders = append(row.folders, top)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, errors.New("the \"## Layers\" section has no table")
	}
	return rows, nil
}

// designViolations compares the layer table with layers and with the
// top-level folders that hold Go code: every such folder has a row, every
// row's folders have its layer in layers, no row is a placeholder for
// code still to come, and the internal/ row names every internal package.
func designViolations(rows []layerRow, folders []string, internal []string) []string {
	var out []string
	seen := map[string]bool{}
	var internalRow string
	for _, r := range rows {
		if strings.Contains(strings.ToLower(r.text), "coming") {
			out = append(out, lineMsg(r.line, "a row says \"coming\": describe what the code holds, or leave the row out"))
		}
		if len(r.folders) == 0 {
			out = append(out, lineMsg(r.line, "the row names no folder in backquotes"))
		}
		for _, f := range r.folders {
			seen[f] = true
			want, ok := layers[f]
			switch {
			case !ok:
				out = append(out, lineMsg(r.line, "folder "+f+" has no layer in importrules_test.go's layers"))
			case want != r.layer:
				out = append(out, lineMsg(r.line, "folder "+f+" is in layer "+strconv.Itoa(r.layer)+" here, "+strconv.Itoa(want)+" in layers"))
			}
			if f == "internal" {
				internalRow = r.text
			}
		}
	}
	for _, f := range folders {
		if !seen[f] {
			out = append(out, "top-level folder "+f+" is missing from the layer table: add a row with its layer ("+layerOf(f)+")")
		}
	}
	for _, p := range internal {
		if internalRow != "" && !strings.Contains(internalRow, "`"+p+"`") {
			out = append(out, "internal/"+p+" is not named (as `"+p+"`) in the internal/ row of the layer table")
		}
	}
	return out
}

func lineMsg(line int, msg string) string {
	return designDoc + ":" + strconv.Itoa(line) + ": " + msg
}

func layerOf(folder string) string {
	if n, ok := layers[folder]; ok {
		return strconv.Itoa(n)
	}
	return "none yet in layers"
}

// goFolders lists the top-level folders with Go code, and the packages
// directly under internal/, from the module's packages.
func goFolders(pkgs []pkg) (folders, internal []string) {
	seen := map[string]bool{}
	for _, p := range pkgs {
		f := folder(p.path)
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		folders = append(folders, f)
	}
	for _, p := range pkgs {
		if rest, ok := strings.CutPrefix(p.path, module+"/internal/"); ok && !strings.Contains(rest, "/") {
			internal = append(internal, rest)
		}
	}
	sort.Strings(folders)
	return folders, internal
}

// TestDesignLayers keeps the layer table of docs/design.md equal to
// layers and to the module's folders.
func TestDesignLayers(t *testing.T) {
	doc, err := os.ReadFile(designDoc)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := layerTable(string(doc))
	if err != nil {
		t.Fatalf("%s: %v", designDoc, err)
	}
	folders, internal := goFolders(load(t))
	for _, v := range designViolations(rows, folders, internal) {
		t.Error(v)
	}
}

// TestDesignLayersFails checks that a missing folder, a wrong layer, a
// "coming" row and an unnamed internal package are each reported.
func TestDesignLayersFails(t *testing.T) {
	doc := "# Design\n\n## Layers\n\nText.\n\n| Layer | Folder | What |\n|---|---|---|\n" +
		"| 0 | `internal/` | `fserr` |\n" +
		"| 3 | `declcfg/` | FBC |\n" +
		"| 8 | (coming) | lint |\n" +
		"\nAfter.\n| 9 | `cmd/` | not in the table |\n"
	rows, err := layerTable(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("rows %+v, want 3 (the table ends at its first non-row line)", rows)
	}
	got := strings.Join(designViolations(rows, []string{"declcfg", "internal", "model"}, []string{"fserr", "suggest"}), "\n")
	for _, want := range []string{
		designDoc + ":10: folder declcfg is in layer 3 here, 2 in layers",
		designDoc + ":11: a row says \"coming\"",
		designDoc + ":11: the row names no folder",
		"top-level folder model is missing from the layer table: add a row with its layer (3)",
		"internal/suggest is not named",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("violations do not report %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "fserr") || strings.Contains(got, "cmd") {
		t.Errorf("reported more than the faults:\n%s", got)
	}
	if _, err := layerTable("# Design\n\nno section\n"); err == nil {
		t.Error("a document without the section was accepted")
	}
}
