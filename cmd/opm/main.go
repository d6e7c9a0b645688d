// Command opm is a drop-in, faster and friendlier opm for OLM file-based
// catalogs. This package only parses flags and prints; the work is done by
// the library packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(Main())
}

// Main runs opm with the process's arguments and streams and returns the
// exit code.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// errReported is returned by commands that have already told the user
// what went wrong (validation reports, for instance).
var errReported = errors.New("reported")

// usageError is a mistake in how a command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// run executes one command line. Errors are printed here, once.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// pflag prints deprecation notices to the flag set's output, which
	// cobra points at stdout; they belong with the other diagnostics.
	var quiet func(*cobra.Command)
	quiet = func(c *cobra.Command) {
		c.Flags().SetOutput(stderr)
		c.PersistentFlags().SetOutput(stderr)
		for _, sub := range c.Commands() {
			quiet(sub)
		}
	}
	quiet(root)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	if errors.Is(err, errReported) {
		return 1
	}
	fmt.Fprintf(stderr, "Error: %v\n", withFlagHint(err))
	var ue usageError
	if errors.As(err, &ue) && cmd != nil {
		fmt.Fprintf(stderr, "\n%s", cmd.UsageString())
	}
	return 1
}
