package main

import (
	"bytes"
	"encoding/json"
	"io"

	"sigs.k8s.io/yaml"
)

// writeJSON writes v as one JSON document indented by two spaces and
// ended by a newline, with <, > and & as they are (no HTML escaping): the
// one JSON writer of every command that reports results rather than
// catalogs. Nothing is written if v cannot be encoded.
func writeJSON(w io.Writer, v any) error {
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

// writeStructured writes v as writeJSON does or, for format "yaml", as
// the YAML of that JSON: the structured output of the commands that
// report results rather than catalogs.
func writeStructured(w io.Writer, format string, v any) error {
	if format != "yaml" {
		return writeJSON(w, v)
	}
	var buf bytes.Buffer
	if err := writeJSON(&buf, v); err != nil {
		return err
	}
	data, err := yaml.JSONToYAML(buf.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
