package template

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
)

// convertFile is the name the input is loaded under (problems are then
// given the input's own name, which need not be a path).
const convertFile = "input"

// Convert turns a catalog stream (the JSON or YAML documents of one file)
// into a template of the given kind, Basic or Substitutes, written as
// upstream's convert-template writes it: the objects in stream order,
// each in upstream's normalised form (keys sorted), except that a basic
// template's bundles keep only their image; JSON indented by four spaces
// with <, > and & escaped, or a YAML document.
func Convert(ctx context.Context, kind Kind, in Input, f declcfg.Format) ([]byte, error) {
	if kind != Basic && kind != Substitutes {
		return nil, fmt.Errorf("cannot convert a catalog to a %s template: only basic and substitutes templates can be made from a catalog", kind)
	}
	var lines declcfg.Lines
	_, err := declcfg.LoadBytes(ctx, convertFile, in.Data, declcfg.WithConcurrency(1), declcfg.WithLines(func(_ int, l declcfg.Lines) { lines = l }))
	var problems declcfg.ErrorList
	if errors.As(err, &problems) {
		for _, p := range problems {
			p.File = in.Name
		}
		return nil, problems
	}
	if err != nil {
		return nil, err
	}

	var objects []json.RawMessage
	start := 0
	for _, o := range lines.Objects {
		blob := bytes.TrimSuffix(lines.Data[start:o.End], []byte("\n"))
		start = o.End
		if kind == Basic && o.Schema == declcfg.SchemaBundle {
			if blob, err = imageOnly(blob); err != nil {
				return nil, problemAt(in.Name, 0, "", "", fmt.Errorf("bundle %q: %w", o.Name, err))
			}
		}
		objects = append(objects, blob)
	}
	var out any
	switch kind {
	case Basic:
		out = struct {
			Schema  string            `json:"schema"`
			Entries []json.RawMessage `json:"entries"`
		}{kind.Schema(), objects}
	default:
		out = struct {
			Schema        string            `json:"schema"`
			Entries       []json.RawMessage `json:"entries"`
			Substitutions []struct{}        `json:"substitutions"`
		}{kind.Schema(), objects, []struct{}{}}
	}
	// encoding/json's own layout, HTML escaping included, as upstream.
	data, err := json.MarshalIndent(out, "", "    ")
	if err != nil {
		return nil, err
	}
	if f == declcfg.FormatJSON {
		return append(data, '\n'), nil
	}
	v, err := value.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	return append(fbcyaml.AppendDocument([]byte("---\n"), &v), '\n'), nil
}

// imageOnly reduces a bundle to what a basic template keeps of it: its
// schema and image, in that order.
func imageOnly(blob []byte) ([]byte, error) {
	var b struct {
		Schema string `json:"schema"`
		Image  string `json:"image"`
	}
	if err := json.Unmarshal(blob, &b); err != nil {
		return nil, err
	}
	return json.Marshal(b)
}
