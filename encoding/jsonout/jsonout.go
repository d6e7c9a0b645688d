// Package jsonout is the one JSON writer of the commands that report
// results rather than catalogs (validate's and lint's documents, SARIF
// logs, the catalog verbs' plans, ...): one document indented by two
// spaces and ended by a newline, with <, > and & as they are (no HTML
// escaping), or the YAML of that JSON, as sigs.k8s.io/yaml writes it
// (through encoding/fbcyaml, which writes catalogs' YAML too).
package jsonout

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/fbcat/opm/encoding/fbcyaml"
)

// Write writes v as one JSON document; nothing is written if v cannot be
// encoded.
func Write(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteAs writes v as Write does or, for format "yaml", as the YAML of
// that JSON.
func WriteAs(w io.Writer, format string, v any) error {
	if format != "yaml" {
		return Write(w, v)
	}
	var buf bytes.Buffer
	if err := Write(&buf, v); err != nil {
		return err
	}
	data, err := fbcyaml.AppendJSON(nil, buf.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
