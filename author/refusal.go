package author

import (
	"errors"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/option"
)

// Refusal is an error of a verb that will not do what was asked because
// of the repository's content or what was asked, as opposed to a failure
// to read or write files (see catalogrepo.Refusal). Problems of
// configuration files (repoconfig.Problem) count as refusals too. A
// refusal that an option lifts wraps an option.Error (Lifts) that
// names it.
type Refusal = catalogrepo.Refusal

// IsRefusal reports whether err is a refusal or a problem of the
// repository's files, rather than a failure to read or write them.
func IsRefusal(err error) bool {
	var r *Refusal
	var c *repoconfig.Problem
	return errors.As(err, &r) || errors.As(err, &c)
}

// The options a refusal names when another value of them lifts it (see
// option.Lifting): a verb's refusal (see Refusal) wraps the option.Error;
// those of Repo.Root and ReleaseRequest.Target are mistakes in how the
// verb was called, not refusals.
const (
	optionPull  option.Name = "author.Options.Pull"
	optionForce option.Name = "author.Options.Force"
	optionRoot  option.Name = "author.Repo.Root"
	// optionExpand is the plan of expanding an operator again, to see
	// what it would change.
	optionExpand option.Name = "author.Repo.Expand"
)

// targetFields are the fields of ReleaseRequest.Target.
var targetFields = option.Names{"author.ReleaseRequest.Target.Channels", "author.ReleaseRequest.Target.TemplateFile",
	"author.ReleaseRequest.Target.Replaces", "author.ReleaseRequest.Target.Skips", "author.ReleaseRequest.Target.SkipRange"}

// needPull: a bundle no committed catalog holds (or holds only migrated,
// where its objects are needed) must be rendered from its image.
func needPull(problem string) *option.Error {
	return option.Lifting(problem, ": pass %s to render it from its image", optionPull)
}

// needNewChannel: a channel whose name is close to an existing one's is
// made only on purpose, with the request's NewChannel (field).
func needNewChannel(problem string, field option.Name) *option.Error {
	return option.Lifting(problem, " (a new channel would be made beside it; pass %s to make it on purpose)", field)
}

// needTarget: a bundle directory without a release-config.yaml does not
// say where the bundle is released.
func needTarget(problem string) *option.Error {
	t := targetFields
	return option.Lifting(problem, ": say where to release the bundle with %s (and %s, %s, %s, %s)", t[0], t[1], t[2], t[3], t[4])
}

// needNoTarget: the bundle directory's release-config.yaml says where the
// bundle is released.
func needNoTarget(problem string) *option.Error {
	return option.Lifting(problem, ": drop %s, or the file", targetFields)
}

// needReplaces: released without a release-config.yaml, what the bundle
// replaces in a channel could not be chosen.
func needReplaces(problem string) *option.Error {
	return option.Lifting(problem, ": say what it replaces with %s", targetFields[2])
}

// needNoEdges: a semver template computes its edges from versions.
func needNoEdges(problem string) *option.Error {
	return option.Lifting(problem, ", so %s do not apply", option.Names{"author.PromoteRequest.Replaces", "author.PromoteRequest.Skips", "author.PromoteRequest.SkipRange"})
}

// needForce: removing a bundle anyway leaves its installs with nothing
// to upgrade to.
func needForce(problem string) *option.Error {
	return option.Lifting(problem, ", or pass %s to remove it anyway", optionForce)
}

// needOverwrite: catalogs of pkg differ from what their templates expand
// to (edited by hand?).
func needOverwrite(problem, pkg string) *option.Error {
	return option.Lifting(problem, "\nsee the difference with: %s; then carry the edit into the template, or pass %s to overwrite the catalogs",
		option.With{Name: optionExpand, Value: pkg}, optionForce)
}
