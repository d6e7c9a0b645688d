package validate

import (
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
)

// TestPlanDefs checks what plans say a definition observes at the field
// "f" of #D (or of its elements, for lists): "opaque" for a definition
// that may not be cached, "exact", "values" (string contents), "kind"
// (kind and emptiness only), "any" (nothing).
func TestPlanDefs(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
		keep bool // whether a stand-in keeps f
	}{
		{"Success/type", `#D: {f?: string}`, "kind", false},
		{"Success/not empty", `#D: {f!: string & !=""}`, "kind", true},
		{"Success/regular field", `#D: {f: string}`, "kind", true},
		{"Success/top", `#D: {f?: _}`, "any", false},
		{"Success/undeclared", `#D: {g?: string, ...}`, "any", false},
		{"Success/pattern", `#D: {[string]: =~"^a"}`, "values", false},
		{"Success/pattern and field", `#D: {[string]: int, f?: =~"^a"}`, "values", false},
		{"Success/regex", `#D: {f?: =~"^[a-z]+$"}`, "values", false},
		{"Success/literal", `#D: {f: "x"}`, "values", true},
		{"Success/enum", `#D: {f?: "a" | "b"}`, "values", false},
		{"Success/default", `#D: {f?: *"a" | string}`, "values", false},
		{"Success/bound", `#D: {f?: int & >=-1 & <=5}`, "values", false},
		{"Success/definition", "#N: string & =~\"x\"\n#D: {f?: #N}", "values", false},
		{"Success/embedding", "#M: {f?: =~\"x\", ...}\n#D: {#M, g?: int}", "values", false},
		{"Success/open list", `#D: {f?: [...=~"x"]}`, "list of values", false},
		{"Success/close", `#D: close({f?: =~"x"})`, "values", false},
		{"Success/validator", "import \"strings\"\n#D: {f?: strings.MinRunes(2)}", "exact", false},
		{"Success/fixed list", `#D: {f?: [string, int]}`, "exact", false},
		{"Success/disjunction of structs", `#D: {f?: {a: int} | {b: int}}`, "exact", false},
		{"Success/regex pattern", `#D: {[=~"^f"]: string}`, "exact", false},
		{"Error/reference to a field", `#D: {g: string, f: g}`, "opaque", false},
		{"Error/comprehension", `#D: {g?: string, if g == "x" {f!: string}}`, "opaque", false},
		{"Error/let", `#D: {let x = "a", f?: x}`, "opaque", false},
		{"Error/recursion", `#D: {f?: [...#D]}`, "opaque", false},
		{"Error/definition planned before", "#A: {g: string, f: g}\n#B: #A\n#D: {f?: #A}", "opaque", false},
		{"Error/validator on a field", "import \"strings\"\n#D: {g: string, f?: strings.HasPrefix(g)}", "opaque", false},
		{"Error/top-level embedding", "#D: {f?: string}\n{#D: f?: =~\"x\"}", "opaque", false},
		{"Error/shadowed type", "string: \"x\"\n#D: {f?: string}", "opaque", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parser.ParseFile("test.cue", "package test\n"+tt.src)
			if err != nil {
				t.Fatal(err)
			}
			p, ok := planDefs([]*ast.File{f}, []string{"#D"})["#D"]
			got := "opaque"
			if ok {
				got = observes(p, "f")
			}
			if got != tt.want {
				t.Errorf("f observes %s, want %s", got, tt.want)
			}
			if ok && !p.exact && p.keep["f"] != tt.keep {
				t.Errorf("stand-ins keep f: %v, want %v", p.keep["f"], tt.keep)
			}
		})
	}
}

// observes says what p observes at its field name.
func observes(p *shapePlan, name string) string {
	if p.exact {
		return "exact"
	}
	f := p.field(name)
	prefix := ""
	if f != nil && f.elem != nil {
		f, prefix = f.elem, "list of "
	}
	switch {
	case f == nil:
		return prefix + "any"
	case f.exact:
		return prefix + "exact"
	case f.values:
		return prefix + "values"
	}
	return prefix + "kind"
}
