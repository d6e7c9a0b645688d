package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fbcat/opm/internal/suggest"
)

// briefUsageError is a usage mistake that one line says all of, with
// no page of usage after it: a flag the command does not have (with the
// flags meant and a pointer to --help), a flag given no value, a value a
// flag or argument cannot have. Exit codes treat it as any usage
// mistake.
type briefUsageError struct {
	msg string
	err error
}

func (e *briefUsageError) Error() string { return e.msg }
func (e *briefUsageError) Unwrap() error { return e.err }

// flagError is the flag error function of every command: a misspelt
// flag, a flag without its value and a value the flag's parser refuses
// (which says what a good one looks like) get a briefUsageError, other
// flag errors a usageError.
func flagError(cmd *cobra.Command, err error) error {
	var nx *pflag.NotExistError
	var vr *pflag.ValueRequiredError
	var iv *pflag.InvalidValueError
	switch {
	case errors.As(err, &nx):
		msg := err.Error()
		if meant := flagsMeant(cmd.Flags(), nx.GetSpecifiedName(), nx.GetSpecifiedShortnames()); len(meant) > 0 {
			msg += "; did you mean " + strings.Join(meant, " or ") + "?"
		}
		return &briefUsageError{msg: fmt.Sprintf("%s (see '%s --help')", msg, cmd.CommandPath()), err: err}
	case errors.As(err, &vr) || errors.As(err, &iv):
		return &briefUsageError{msg: fmt.Sprintf("%s (see '%s --help')", err, cmd.CommandPath()), err: err}
	}
	return usageError{err}
}

// badValue is the error of a flag's value that a command checks itself,
// in words that name the flag and what a good value looks like.
func badValue(err error) error { return &briefUsageError{msg: err.Error(), err: err} }

// flagsMeant are the flags of fs (visible, not deprecated) that a name
// typed as --name, or a shorthand typed in the group -shorthands, may
// have meant: long names within two edits (a swap of neighbours is one)
// or that start with it; for a group of several letters typed with one
// dash, the long flags it is close to (-image for --image); for a single
// letter, the shorthand of the other case (-O for -o).
func flagsMeant(fs *pflag.FlagSet, name, shorthands string) []string {
	typed := name
	if shorthands != "" {
		if len(shorthands) == 1 {
			return shorthandsMeant(fs, name)
		}
		typed = shorthands
	}
	typed, _, _ = strings.Cut(typed, "=")
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && f.Deprecated == "" {
			names = append(names, f.Name)
		}
	})
	meant := suggest.Meant(typed, names)
	for i, m := range meant {
		meant[i] = "--" + m
	}
	return meant
}

// shorthandsMeant is the shorthand of fs that differs from the letter
// typed only in case.
func shorthandsMeant(fs *pflag.FlagSet, letter string) []string {
	var meant []string
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Shorthand != "" && f.Shorthand != letter && strings.EqualFold(f.Shorthand, letter) && !f.Hidden {
			meant = append(meant, "-"+f.Shorthand)
		}
	})
	return meant
}
