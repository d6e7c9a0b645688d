package template

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fbcat/opm/alpha/graph"
	"github.com/fbcat/opm/declcfg"
)

// ParseArgs reads opm alpha render-template's [TYPE] [FILE]: one
// argument is a TYPE if it names one, else the FILE; no FILE, or "-", is
// standard input. An empty kind means that it is detected from the
// template's schema (Detect).
func ParseArgs(args []string) (Kind, string, error) {
	switch len(args) {
	case 0:
		return "", "-", nil
	case 1:
		if k, ok := ParseKind(args[0]); ok {
			return k, "-", nil
		}
		return "", args[0], nil
	}
	k, ok := ParseKind(args[0])
	if !ok {
		var names []string
		for _, k := range Kinds() {
			names = append(names, string(k))
		}
		return "", "", fmt.Errorf("invalid template type %q, must be one of: [%s]", args[0], strings.Join(names, " "))
	}
	return k, args[1], nil
}

// ReadInput reads a template, or a catalog to convert, from a file or,
// for "-", from stdin.
func ReadInput(file string, stdin io.Reader) (Input, error) {
	if file == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return Input{}, fmt.Errorf("reading standard input: %w", err)
		}
		return Input{Name: "<stdin>", Data: data}, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return Input{}, err
	}
	return Input{Name: file, Data: data}, nil
}

// WriteRendered writes an expanded template's catalog in a format:
// "json", "yaml", or "mermaid", its upgrade graph drawn with OLM v0
// semantics as upstream draws it (what the graph leaves out is said on
// warn).
func WriteRendered(w, warn io.Writer, cfg *declcfg.DeclarativeConfig, format string) error {
	if format != "mermaid" {
		return declcfg.Write(cfg, w, declcfg.Format(format))
	}
	warnings, err := graph.WriteMermaid(w, cfg, graph.Options{V0Semantics: true})
	for _, wn := range warnings {
		fmt.Fprintf(warn, "warning: %v\n", wn)
	}
	return err
}
