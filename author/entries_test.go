package author

import (
	"context"
	"strings"
	"testing"
)

// TestDanglingEntryAtTemplateLine: a channel entry naming a bundle the
// template has no olm.bundle entry for is refused at the template's line
// of the entry, not at a line of a rendered catalog.
func TestDanglingEntryAtTemplateLine(t *testing.T) {
	ctx := context.Background()
	r := testRepo(t)
	tmpl := "operators/widget/catalog-templates/basic.yaml"
	text := strings.Replace(read(t, r, tmpl), "    replaces: widget-operator.v1.1.0\n- schema: olm.bundle", "    replaces: widget-operator.v1.1.0\n  - name: widget-operator.v1.1.2\n    replaces: widget-operator.v1.1.1\n- schema: olm.bundle", 1)
	writeFile(t, r, tmpl, text)
	want := "operators/widget/catalog-templates/basic.yaml:27: channel fast lists widget-operator.v1.1.2, but no olm.bundle entry of the template is that bundle: add an olm.bundle entry with its image, or remove the channel's entry (did you mean widget-operator.v1.1.1?)"
	p := open(t, r, "widget")
	if _, err := p.Expand(ctx, Options{}); !IsRefusal(err) || err.Error() != want {
		t.Errorf("render: %v\nwant %s", err, want)
	}
	_, err := p.Promote(ctx, PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stable"}, Options{})
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("promote: %v", err)
	}
}
