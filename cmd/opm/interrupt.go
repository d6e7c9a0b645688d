package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
)

// What a command says when SIGINT or SIGTERM ends it: one line on
// stderr, "opm: interrupted by SIGINT: ...", saying what happened and,
// for the commands that write a repository, what state it is in.

// interrupted is the cause of the context of a command ended by a signal.
type interrupted struct{ sig os.Signal }

func (i interrupted) Error() string { return "interrupted by " + signalName(i.sig) }

// interruptedBy is the signal that ended ctx, or nil.
func interruptedBy(ctx context.Context) os.Signal {
	var i interrupted
	if errors.As(context.Cause(ctx), &i) {
		return i.sig
	}
	return nil
}

// signalName is the name of the signals opm handles as shells and kill
// write them.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// signalExitCode is the exit code shells report for a process ended by
// sig: 128 plus the signal's number (130 for SIGINT, 143 for SIGTERM).
func signalExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// writePhase is how far a command that writes a repository has come.
type writePhase int

const (
	// notWriting: a command that writes no repository.
	notWriting writePhase = iota
	// planning: a catalog verb that has written nothing yet.
	planning
	// writing: a catalog verb writing its files (all or none).
	writing
	// writeFailed: the write failed; its error says what it left.
	writeFailed
	// written: every file is written.
	written
)

// interruption says, once, that a signal ended a command and what state
// it left: Main and the command (which may still be running when Main
// gives up waiting) share it through the command's context.
type interruption struct {
	w     io.Writer
	mu    sync.Mutex
	said  bool
	phase writePhase
}

type interruptionKey struct{}

// withInterruption is ctx with an interruption that writes to w, unless
// ctx has one.
func withInterruption(ctx context.Context, w io.Writer) (context.Context, *interruption) {
	if n, ok := ctx.Value(interruptionKey{}).(*interruption); ok {
		return ctx, n
	}
	n := &interruption{w: w}
	return context.WithValue(ctx, interruptionKey{}, n), n
}

// interruptionOf is the interruption of a command's context (one that
// writes to w when it has none: a command run without run).
func interruptionOf(ctx context.Context, w io.Writer) *interruption {
	_, n := withInterruption(ctx, w)
	return n
}

// set records how far the command has come.
func (n *interruption) set(p writePhase) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.phase = p
}

// say writes, the first time it is called, that sig ended the command
// and what state it left (finished: the command had done everything);
// state, if not "", says it instead of the phase.
func (n *interruption) say(sig os.Signal, finished bool, state string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.said {
		return
	}
	n.said = true
	if state == "" {
		state = n.phase.state(finished)
	}
	fmt.Fprintf(n.w, "opm: interrupted by %s%s\n", signalName(sig), state)
}

// state says, after "interrupted by SIGINT", what the command had done.
func (p writePhase) state(finished bool) string {
	switch p {
	case planning:
		return ": nothing was written; the repository is as it was"
	case writing:
		return " while moving files into place: the next opm alpha catalog command on the repository finishes writing them"
	case writeFailed:
		return ": writing failed; the error says what state the repository is in"
	case written:
		return " after every change was written: the repository has all of them"
	}
	if finished {
		return " after it had finished"
	}
	return " before it finished"
}
