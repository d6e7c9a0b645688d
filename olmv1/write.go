// Writing objects: a YAML stream for kubectl apply, or a JSON List.

package olmv1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
)

// WriteYAML writes the objects as a stream of YAML documents, each after
// a "---" line. The rules of roles carry their RuleNotes as comments.
func WriteYAML(w io.Writer, objs []Object) error {
	var buf []byte
	for _, o := range objs {
		buf = append(buf, "---\n"...)
		buf = appendObjectYAML(buf, o)
	}
	_, err := w.Write(buf)
	return err
}

// appendObjectYAML appends one object; a role with notes is written
// without its rules first (rules sorts last of a role's keys), then each
// rule as an item with its note above it.
func appendObjectYAML(buf []byte, o Object) []byte {
	rules := o.Value.At("rules")
	if len(o.RuleNotes) == 0 || rules == nil || rules.Kind != value.Array || len(rules.Items) != len(o.RuleNotes) {
		return fbcyaml.AppendDocument(buf, o.Value)
	}
	head := clone(o.Value)
	deleteField(head, "rules")
	buf = fbcyaml.AppendDocument(buf, head)
	buf = append(buf, "rules:\n"...)
	for i := range rules.Items {
		for _, line := range strings.Split(o.RuleNotes[i], "\n") {
			buf = append(buf, "# "...)
			buf = append(buf, line...)
			buf = append(buf, '\n')
		}
		item := fbcyaml.AppendDocument(nil, &rules.Items[i])
		for j, line := range strings.SplitAfter(strings.TrimSuffix(string(item), "\n"), "\n") {
			if j == 0 {
				buf = append(buf, "- "...)
			} else {
				buf = append(buf, "  "...)
			}
			buf = append(buf, line...)
		}
		buf = append(buf, '\n')
	}
	return buf
}

// WriteJSON writes the objects as a v1 List, indented.
func WriteJSON(w io.Writer, objs []Object) error {
	items := make([]value.Value, len(objs))
	for i, o := range objs {
		items[i] = *o.Value
	}
	list := toValue(struct {
		typeMeta
		Items []struct{} `json:"items"`
	}{typeMeta: typeMeta{"v1", "List"}, Items: []struct{}{}})
	setField(&list, "items", value.Value{Kind: value.Array, Items: items})
	var out bytes.Buffer
	if err := json.Indent(&out, value.AppendKubernetesJSON(nil, &list), "", "  "); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

// WriteObjects writes objects in a format: "json", one JSON List, or
// else (YAML) a stream with the notes first as comments.
func WriteObjects(w io.Writer, format string, objs []Object, notes []string) error {
	if format == "json" {
		return WriteJSON(w, objs)
	}
	if _, err := io.WriteString(w, NotesText(notes)); err != nil {
		return err
	}
	return WriteYAML(w, objs)
}
