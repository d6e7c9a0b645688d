package author

import (
	"errors"
	"fmt"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/catalogrepo/request"
)

// Refusal is an error of a verb that will not do what was asked because
// of the repository's content or what was asked, as opposed to a failure
// to read or write files (see catalogrepo.Refusal). Problems of
// configuration files (repoconfig.Error) count as refusals too. A
// refusal that an option lifts wraps a NeedError.
type Refusal = catalogrepo.Refusal

// IsRefusal reports whether err is a refusal or a problem of the
// repository's files, rather than a failure to read or write them.
func IsRefusal(err error) bool {
	var r *Refusal
	var c *repoconfig.Error
	return errors.As(err, &r) || errors.As(err, &c)
}

// Need is what the caller of a verb can give to have a refused request
// done: an option of Options, of the request or of the Repo. A command
// line gives each with a flag.
type Need int

const (
	// NeedPull is Options.Pull: a bundle no committed catalog holds (or
	// holds only migrated, where its objects are needed) must be rendered
	// from its image.
	NeedPull Need = iota + 1
	// NeedRoot is a Repo.Root that is the root of a catalog repository,
	// the directory that holds operators/.
	NeedRoot
	// NeedNewChannel is the request's NewChannel: a channel whose name is
	// close to an existing one's is made only on purpose.
	NeedNewChannel
	// NeedTarget is ReleaseRequest.Target: a bundle directory without a
	// release-config.yaml does not say where the bundle is released.
	NeedTarget
	// NeedNoTarget is a ReleaseRequest without Target: the bundle
	// directory's release-config.yaml says where the bundle is released.
	NeedNoTarget
	// NeedNoEdges is a PromoteRequest without Replaces, Skips and
	// SkipRange: a semver template computes its edges from versions.
	NeedNoEdges
	// NeedForce is Options.Force to remove a bundle anyway, though its
	// installs would be left with nothing to upgrade to.
	NeedForce
	// NeedOverwrite is Options.Force to overwrite catalogs that differ
	// from what their templates expand to (edited by hand?).
	NeedOverwrite
	// NeedReplaces is ReleaseRequest.Target.Replaces: released without a
	// release-config.yaml, what the bundle replaces in a channel could not
	// be chosen.
	NeedReplaces
)

// NeedError is an error that giving Need lifts. Problem says what is
// wrong; Error adds what is needed in the library's words (naming the
// option), and a caller that has its own words for Need (a command line,
// its flags) writes Problem followed by them instead. A verb's refusal
// (see Refusal) wraps it; NeedRoot, NeedTarget and NeedNoTarget are
// mistakes in how the verb was called, not refusals.
type NeedError struct {
	Need    Need
	Problem string
	// Package is the operator directory the refusal concerns, for the
	// words of a Need that name it (NeedOverwrite's).
	Package string
}

func (e *NeedError) Error() string { return e.Problem + e.Need.words(e.Package) }

// words are what is needed, in the library's words, as they follow the
// problem.
func (n Need) words(pkg string) string {
	switch n {
	case NeedPull:
		return ": it must be rendered from its image (Options.Pull)"
	case NeedRoot:
		return ": the repository's root is the directory that holds operators/ (Repo.Root)"
	case NeedNewChannel:
		return " (a new channel would be made beside it; set the request's NewChannel to make it on purpose)"
	case NeedTarget:
		return ": say where to release the bundle with ReleaseRequest.Target (its channels, and template, replaces, skips, skip range)"
	case NeedNoTarget:
		return ": give no ReleaseRequest.Target, or remove the file"
	case NeedNoEdges:
		return ", so PromoteRequest's Replaces, Skips and SkipRange do not apply"
	case NeedForce:
		return ", or set Options.Force to remove it anyway"
	case NeedReplaces:
		return ": say what it replaces with ReleaseRequest.Target.Replaces"
	case NeedOverwrite:
		return fmt.Sprintf("\nsee the difference in the plan of expanding %s again (Package.Expand); then carry the edit into the template, or set Options.Force to overwrite the catalogs", pkg)
	}
	return ""
}

// RequestError is a request a verb cannot carry out as it is given (see
// request.RequestError).
type RequestError = request.RequestError
