package main

import (
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/image"
)

// withFlagHint adds to an error what the user can do: the flag that
// sets an image option another value of which may fix it; for an image
// that a registry on localhost does not have, how to use the copy in a
// local container store; and, for an authoring refusal that an option
// lifts, its flag (see needWords). run applies it to every command's
// error, so that a command needs nothing of its own.
func withFlagHint(err error) error {
	err = withNeedFlags(err)
	var me *image.MissingError
	if errors.As(err, &me) && isLocalhost(me.Registry) {
		// podman and buildah name the images they build localhost/NAME;
		// they exist only in their store unless pushed.
		return fmt.Errorf("%w (%s)", err, localStoreHint(me.Ref, installed))
	}
	var oe *image.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	switch oe.Option {
	case image.OptionInsecure:
		return fmt.Errorf("%w (for a self-signed certificate use --skip-tls-verify, for a plain-HTTP registry --use-http; to relax only this registry, set insecure = true in its [[registry]] table of registries.conf)", err)
	case image.OptionPlatform:
		return fmt.Errorf("%w (choose another with --platform)", err)
	}
	return err
}

// localStoreHint says how to use an image that may be only in a local
// container store, naming only the tools installed (for which installed
// says yes).
func localStoreHint(ref string, installed func(tool string) bool) string {
	var hint string
	switch {
	case installed("podman"):
		hint = fmt.Sprintf("if %s is only in your local podman store, save it to an archive and use that: podman save -o image.tar %s, then docker-archive:image.tar in place of the reference", ref, ref)
	case installed("docker"):
		hint = fmt.Sprintf("if %s is only in your local docker store, save it to an archive and use that: docker save -o image.tar %s, then docker-archive:image.tar in place of the reference", ref, ref)
	case installed("buildah"):
		hint = fmt.Sprintf("if %s is only in your local buildah store, write it to an archive and use that: buildah push %s oci-archive:image.tar, then oci-archive:image.tar in place of the reference", ref, ref)
	default:
		hint = fmt.Sprintf("if %s is only in a local container store, save it to an archive there and use docker-archive:FILE or oci-archive:FILE in place of the reference", ref)
	}
	if strings.Contains(ref, "opm-base") {
		hint += "; make base-image writes its base image to bin/opm-base.oci.tar: use --base-image oci-archive:bin/opm-base.oci.tar"
	}
	return hint
}

// installed reports whether a program is on PATH.
func installed(tool string) bool {
	_, err := exec.LookPath(tool)
	return err == nil
}

// isLocalhost reports whether a registry (host[:port]) is "localhost".
func isLocalhost(registry string) bool {
	host := registry
	if h, _, err := net.SplitHostPort(registry); err == nil {
		host = h
	}
	return strings.EqualFold(host, "localhost")
}

// rephrased is an error in the command line's words: Error is msg, and
// the library's error stays in the chain (exit codes ask it).
type rephrased struct {
	msg string
	err error
}

func (e *rephrased) Error() string { return e.msg }
func (e *rephrased) Unwrap() error { return e.err }

// withNeedFlags says what each author.NeedError in err needs with the
// flag that gives it, where the library names its option.
func withNeedFlags(err error) error {
	needs := needErrors(err, nil)
	if len(needs) == 0 {
		return err
	}
	msg := err.Error()
	for _, ne := range needs {
		if words := needWords(ne); words != "" {
			msg = strings.ReplaceAll(msg, ne.Error(), ne.Problem+words)
		}
	}
	return &rephrased{msg: msg, err: err}
}

// needErrors collects the author.NeedErrors of err's tree.
func needErrors(err error, out []*author.NeedError) []*author.NeedError {
	switch e := err.(type) {
	case nil:
		return out
	case *author.NeedError:
		return append(out, e)
	case interface{ Unwrap() []error }:
		for _, inner := range e.Unwrap() {
			out = needErrors(inner, out)
		}
		return out
	}
	return needErrors(errors.Unwrap(err), out)
}

// needWords says with this command line's flags what a refusal needs, as
// it follows the refusal's problem; "" keeps the library's words.
func needWords(ne *author.NeedError) string {
	switch ne.Need {
	case author.NeedPull:
		return ": pass --pull to render it from its image"
	case author.NeedRoot:
		return ": run from the root of the catalog repository or give --root"
	case author.NeedNewChannel:
		return " (a new channel would be made beside it; pass --new-channel to make it on purpose)"
	case author.NeedTarget:
		return ": say where to release the bundle with --channel (and --template, --replaces, --skips, --skip-range)"
	case author.NeedNoTarget:
		return ": drop --channel, --template, --replaces, --skips and --skip-range, or the file"
	case author.NeedReplaces:
		return ": say what it replaces with --replaces"
	case author.NeedNoEdges:
		return ", so --replaces, --skips and --skip-range do not apply"
	case author.NeedForce:
		return ", or pass --force to remove it anyway"
	case author.NeedOverwrite:
		return fmt.Sprintf("\nsee the difference with: opm alpha catalog render %s --dry-run; then carry the edit into the template, or pass --force to overwrite the catalogs", ne.Package)
	}
	return ""
}

// request is an authoring request, which says itself what it lacks.
type request interface{ Validate() error }

// checkRequest checks a request by the library's rules and says what is
// wrong in the command's words: flags names the flag or argument that
// gives each field of the request. Bad values are said each on a line of
// its own, with no page of usage: the line names the flag and the value.
func checkRequest(req request, flags map[string]string) error {
	err := req.Validate()
	var msgs []string
	invalid := true
	for _, e := range joinedErrors(err) {
		var re *author.RequestError
		if !errors.As(e, &re) {
			return err // in words of its own
		}
		msg, ok := requestWords(re, flags)
		if !ok {
			return usageError{err}
		}
		msgs = append(msgs, msg)
		invalid = invalid && re.Invalid
	}
	switch {
	case err == nil:
		return nil
	case invalid:
		return &briefUsageError{msg: strings.Join(msgs, "\n"), err: err}
	}
	return usageError{&rephrased{msg: strings.Join(msgs, "\n"), err: err}}
}

// requestWords says a RequestError with the flags that give its fields;
// false when one of them has none.
func requestWords(re *author.RequestError, flags map[string]string) (string, bool) {
	names := make([]string, len(re.Fields))
	for i, field := range re.Fields {
		if names[i] = flags[field]; names[i] == "" {
			return "", false
		}
	}
	switch {
	case re.OneOf:
		return "give exactly one of " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1], true
	case re.Invalid:
		return names[0] + ": " + re.Why, true
	}
	return names[0] + " is required: " + re.Why, true
}

// joinedErrors are the errors err joins (errors.Join), or err alone.
func joinedErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}
