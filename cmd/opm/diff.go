package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/diff"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/render"
)

func newDiffCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "text", allowed: []string{"text", "json", "yaml"}}
	var platform platformFlag
	var exitCode bool
	cmd := &cobra.Command{
		Use:         "diff OLD NEW",
		Short:       "Show what changed between two file-based catalogs",
		Args:        exactArgs(2),
		Annotations: map[string]string{failureExit2: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			if args[0] == "-" && args[1] == "-" {
				return usageError{errors.New(`only one of OLD and NEW can be "-" (standard input)`)}
			}
			r := &render.Renderer{Images: reg.imageOptions(cmd, platform)}
			old, new, err := renderBoth(cmd.Context(), r, cmd.InOrStdin(), args[0], args[1])
			if err != nil {
				return err
			}
			res := diff.Compare(old, new)
			var buf bytes.Buffer
			if output.value == "text" {
				err = diff.WriteText(&buf, res)
			} else {
				err = jsonout.WriteAs(&buf, output.value, res)
			}
			if err != nil {
				return err
			}
			if _, err := cmd.OutOrStdout().Write(buf.Bytes()); err != nil {
				return err
			}
			if exitCode && !res.Empty() {
				return errReported
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.VarP(&output, "output", "o", "Output format (text|json|yaml)")
	f.BoolVar(&exitCode, "exit-code", false, "exit 1 when the catalogs differ, 0 when they do not")
	addPlatformFlag(f, &platform)
	return cmd
}

// renderBoth renders two references at once; "-" is a catalog stream read
// from stdin.
func renderBoth(ctx context.Context, r *render.Renderer, stdin io.Reader, a, b string) (*declcfg.DeclarativeConfig, *declcfg.DeclarativeConfig, error) {
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
		cfg, err := run(b)
		done <- result{cfg, err}
	}()
	old, errOld := run(a)
	res := <-done
	if errOld != nil {
		return nil, nil, errOld
	}
	return old, res.cfg, res.err
}
