package importrules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goMod is the module's go.mod, whose direct requirements docs/design.md
// must name.
var goMod = filepath.Join("..", "..", "go.mod")

// directRequirements lists the module paths go.mod requires directly:
// every requirement, in a require block or on a require line of its own,
// without an "// indirect" comment.
func directRequirements(mod string) []string {
	var out []string
	inBlock := false
	for _, l := range strings.Split(mod, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "require (":
			inBlock = true
			continue
		case inBlock && l == ")":
			inBlock = false
			continue
		case strings.HasPrefix(l, "require ") && !strings.HasSuffix(l, "("):
			l = strings.TrimSpace(strings.TrimPrefix(l, "require "))
		case !inBlock:
			continue
		}
		spec, comment, _ := strings.Cut(l, "//")
		fields := strings.Fields(spec)
		if len(fields) < 2 || strings.TrimSpace(comment) == "indirect" {
			continue
		}
		out = append(out, fields[0])
	}
	return out
}

// dependencySection is the "## Dependencies" section of the design
// document, up to the next section; "" if it has none.
func dependencySection(doc string) string {
	_, after, ok := strings.Cut(doc, "\n## Dependencies\n")
	if !ok {
		return ""
	}
	if i := strings.Index(after, "\n## "); i >= 0 {
		after = after[:i]
	}
	return after
}

// undocumentedDependencies lists the requirements the section does not
// name by their exact module path, in backquotes.
func undocumentedDependencies(section string, reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if !strings.Contains(section, "`"+r+"`") {
			out = append(out, r)
		}
	}
	return out
}

// TestDesignNamesDependencies keeps the "## Dependencies" section of
// docs/design.md naming every direct requirement of go.mod.
func TestDesignNamesDependencies(t *testing.T) {
	mod, err := os.ReadFile(goMod)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(designDoc)
	if err != nil {
		t.Fatal(err)
	}
	reqs := directRequirements(string(mod))
	if len(reqs) == 0 {
		t.Fatalf("%s: no direct requirement found", goMod)
	}
	section := dependencySection(string(doc))
	if section == "" {
		t.Fatalf("%s: no \"## Dependencies\" section", designDoc)
	}
	for _, r := range undocumentedDependencies(section, reqs) {
		t.Errorf("%s requires %s directly, but the \"## Dependencies\" section of %s does not name it (as `%s`, with what it is for)", goMod, r, designDoc, r)
	}
}

// TestDesignNamesDependenciesFails checks the parts of the check: block
// and single-line requirements, indirect ones left out, names matched
// exactly and only in their section.
func TestDesignNamesDependenciesFails(t *testing.T) {
	mod := "module example.com/m\n\ngo 1.26.0\n\nrequire example.com/single v1.0.0\n\n" +
		"require (\n\texample.com/a v1.0.0\n\texample.com/ab v1.0.0 // a comment\n\texample.com/gone v1.0.0 // indirect\n)\n\n" +
		"require (\n\texample.com/late v0.1.0 // indirect\n)\n"
	reqs := directRequirements(mod)
	if got := strings.Join(reqs, " "); got != "example.com/single example.com/a example.com/ab" {
		t.Fatalf("direct requirements %q", got)
	}
	doc := "# Design\n\n## Dependencies\n\n- `example.com/ab`: what for.\n- `example.com/single`: what for.\n\n## Next\n\n`example.com/a`\n"
	got := undocumentedDependencies(dependencySection(doc), reqs)
	if strings.Join(got, " ") != "example.com/a" {
		t.Errorf("undocumented %q, want example.com/a (a prefix of a named one, and named only outside the section)", got)
	}
	if dependencySection("# Design\n\nno section\n") != "" {
		t.Error("a document without the section has one")
	}
}
