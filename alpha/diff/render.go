package diff

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/render"
)

// Render renders the two catalogs to compare, at once; "-" is a catalog
// stream read from stdin (for one of them).
func Render(ctx context.Context, r *render.Renderer, stdin io.Reader, old, new string) (*declcfg.DeclarativeConfig, *declcfg.DeclarativeConfig, error) {
	type result struct {
		cfg *declcfg.DeclarativeConfig
		err error
	}
	run := func(ref string) (*declcfg.DeclarativeConfig, error) {
		if ref != "-" {
			return r.Run(ctx, ref)
		}
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return r.RunBytes(ctx, render.StdinName, data)
	}
	done := make(chan result, 1)
	go func() {
		cfg, err := run(new)
		done <- result{cfg, err}
	}()
	oldCfg, errOld := run(old)
	res := <-done
	if errOld != nil {
		return nil, nil, errOld
	}
	return oldCfg, res.cfg, res.err
}

// Write writes a comparison in a format: "text", the lines of WriteText,
// or the document of Result in "json" or "yaml". Nothing is written when
// it cannot be written whole.
func Write(w io.Writer, format string, res *Result) error {
	var buf bytes.Buffer
	var err error
	if format == "text" {
		err = WriteText(&buf, res)
	} else {
		err = jsonout.WriteAs(&buf, format, res)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}
