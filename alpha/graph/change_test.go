package graph

import (
	"strings"
	"testing"
)

// A channel's change: a bundle added on top, one taken out at the
// bottom; edges by replaces, skips and skipRange (not from the entry
// itself, nor from an entry without a semantic version); what an edge
// names outside the entries drawn is a node of its own.
func TestWriteChange(t *testing.T) {
	before := ChangeSide{Total: 2, Head: "op.v2", Entries: []ChangeEntry{
		{Name: "op.v2", Version: "2.0.0", Replaces: "op.v1"},
		{Name: "op.v1", Version: "1.0.0"},
	}}
	after := ChangeSide{Total: 3, Head: "op.v3", Entries: []ChangeEntry{
		{Name: "op.v3", Version: "3.0.0", Replaces: "op.v2", Skips: []string{"op.v0"}, SkipRange: ">=1.0.0 <3.0.0"},
		{Name: "op.v2", Version: "2.0.0", Deprecated: true},
		{Name: `we"ird`, Version: "x"},
	}}
	before.Other = map[string]bool{"op.v3": true, "op.v2": true, `we"ird`: true}
	after.Other = map[string]bool{"op.v2": true, "op.v1": true}
	var b strings.Builder
	if err := WriteChange(&b, before, after); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, line := range []string{
		"flowchart LR\n  subgraph before[\"before\"]\n    direction TB\n    b0[\"op.v2\"]\n    b1[\"op.v1\"]\n    b1 -->|replace| b0\n  end\n",
		"  subgraph after[\"after\"]\n    direction TB\n    a0[\"op.v3\"]\n    a1[\"op.v2\"]\n    a2[\"we#34;ird\"]\n",
		"    a1 -->|replace| a0\n    a3[\"op.v0\"]\n    a3 -->|skip| a0\n    a1 -->|\"skipRange(#62;=1.0.0 #60;3.0.0)\"| a0\n  end\n  before ~~~ after\n",
		"  class b1 removed\n  class b0 head\n  class a0,a2 added\n  class a1 deprecated\n  class a0 head\n  class a3 outside\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("no\n%s\nin\n%s", line, got)
		}
	}
	b.Reset()
	if err := WriteChange(&b, ChangeSide{}, ChangeSide{Total: 1, Entries: []ChangeEntry{{Name: "x"}}}); err != nil || !strings.Contains(b.String(), "subgraph before[\"before (no channel)\"]\n    direction TB\n    bnone[\" \"]\n") || !strings.Contains(b.String(), "class bnone outside\n") {
		t.Errorf("an empty side:\n%s", b.String())
	}
	b.Reset()
	_ = WriteChange(&b, ChangeSide{Total: 5, Entries: before.Entries}, after)
	if !strings.Contains(b.String(), `subgraph before["before (2 of 5 entries)"]`) {
		t.Errorf("a trimmed side:\n%s", b.String())
	}
}

func TestMermaidText(t *testing.T) {
	if got := mermaidText("a\"b<c>#d\n`e`"); got != "a#34;b#60;c#62;#35;d #96;e#96;" {
		t.Fatalf("got %q", got)
	}
}
