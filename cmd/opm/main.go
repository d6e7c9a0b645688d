// Command opm is a drop-in, faster and friendlier opm for OLM file-based
// catalogs. This package only parses flags and prints; the work is done by
// the library packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/residency"
	// The heap is advised for huge pages before most packages are
	// initialised (see hugeheap).
	_ "github.com/fbcat/opm/internal/residency/hugeheap"
)

func main() {
	// Start-up ran the initialisers of every linked package, most of them
	// never run again: their code need not stay resident (see residency).
	_, _ = residency.ReleaseExecutable()
	os.Exit(Main())
}

// Main runs opm with the process's arguments and streams and returns the
// exit code.
//
// SIGINT and SIGTERM end every command promptly, with exit code 130 or
// 143 as a shell reports a process the signal ended: the command's context
// is cancelled, so that it can clean up (temporary files of image pulls),
// and if it has not returned after interruptGrace, or at a second signal,
// Main returns anyway, even while the command is blocked (in a read that
// nothing can interrupt, for instance). Commands annotated with
// stopGracefully (serve) get as long as they need to return on their own,
// and their exit code; a second signal ends them at once. A command that
// returns success although the signal came (it had done everything: the
// catalog verbs once they start moving files into place) exits 0. Either
// way one line on stderr says what happened and what state the command
// left (see interruption), but for a command that stops gracefully.
func Main() int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	args := os.Args[1:]
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	ctx, said := withInterruption(ctx, os.Stderr)
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, os.Stdin, os.Stdout, os.Stderr) }()
	var sig os.Signal
	select {
	case code := <-done:
		return code
	case sig = <-sigs:
	}
	cancel(interrupted{sig})
	graceful := stopsGracefully(args)
	var grace <-chan time.Time // nil: no limit
	if !graceful {
		grace = time.After(interruptGrace)
	}
	select {
	case code := <-done:
		if graceful || code == 0 {
			return code // finished: everything was done
		}
	case <-grace:
	case sig = <-sigs:
	}
	said.say(sig, false, "")
	return signalExitCode(sig)
}

// interruptGrace is how long a command has to return once its context is
// cancelled by a signal.
const interruptGrace = time.Second

// stopGracefully is the annotation of commands whose context being
// cancelled by SIGINT or SIGTERM is a request to stop cleanly (exit 0),
// which they may take their time over.
const stopGracefully = "opm.stop-gracefully"

// stopsGracefully reports whether args name a command annotated with
// stopGracefully.
func stopsGracefully(args []string) bool {
	cmd, _, err := newRootCmdFor(args).Find(args)
	return err == nil && cmd.Annotations[stopGracefully] != ""
}

// quotePaths quotes the file names of the file system errors in err's
// tree that must be quoted to be printed (see declcfg.QuoteFileName).
func quotePaths(err error) {
	switch e := err.(type) {
	case nil:
	case *fs.PathError:
		e.Path = declcfg.QuoteFileName(e.Path)
	case interface{ Unwrap() []error }:
		for _, inner := range e.Unwrap() {
			quotePaths(inner)
		}
	default:
		quotePaths(errors.Unwrap(err))
	}
}

// errReported is returned by commands that have already told the user
// what went wrong (validation reports, for instance).
var errReported = errors.New("reported")

// failureExit2 is the annotation of our own commands (not upstream's,
// which exit 1 on every failure), whose exit codes follow one rule (see
// docs/exit-codes.md): 0 done, 1 refused or findings, 2 usage or could
// not run (I/O, a registry that cannot be reached). A negative result
// such a command reports itself (errReported: validate's invalid catalog,
// lint's findings) and a refusal (refused) exit 1. The annotation of a
// group of commands holds for all of them.
const failureExit2 = "opm.failure-exit-2"

// exitCode is the exit code of a command that failed with err.
func exitCode(cmd *cobra.Command, err error) int {
	if errors.Is(err, errReported) || refused(err) {
		return 1
	}
	for c := cmd; c != nil; c = c.Parent() {
		if c.Annotations[failureExit2] != "" {
			return 2
		}
	}
	return 1
}

// refused reports whether err is the request being refused, because of
// what the repository or catalog holds (a name it does not have, a bundle
// already released) rather than a failure to run: errors with a Refused
// method that says so (author's refusals, validate's InvalidError, model's
// NotFoundError, which olmv1 and alpha filter return).
func refused(err error) bool {
	var r interface{ Refused() bool }
	return errors.As(err, &r) && r.Refused()
}

// usageError is a mistake in how a command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// run executes one command line. Errors are printed here, once.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmdFor(args)
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
	if err := removedHint(root, args); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	ctx, said := withInterruption(ctx, stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if sig := interruptedBy(ctx); sig != nil && (cmd == nil || cmd.Annotations[stopGracefully] == "") {
		said.say(sig, err == nil, "")
		if err != nil && !errors.Is(err, errReported) {
			// The user stopped the command: what it says about being
			// cancelled is no news.
			return 1
		}
	}
	if err == nil {
		return 0
	}
	if errors.Is(err, errReported) {
		return 1
	}
	quotePaths(err)
	fmt.Fprintf(stderr, "Error: %v\n", sayOptions(err))
	var ue usageError
	if errors.As(err, &ue) && cmd != nil {
		fmt.Fprintf(stderr, "\n%s", cmd.UsageString())
	}
	return exitCode(cmd, err)
}
