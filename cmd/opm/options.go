package main

import (
	"errors"
	"strings"

	"github.com/fbcat/opm/option"
)

// flagOf says each option of the library with the flag (or argument) of
// this command line that gives it: the one place where the library's
// options (option.Name: package, type and field) become flags. The
// library's errors and reports name options (option.Error); run says
// every error with these words.
var flagOf = map[option.Name]string{
	// opm alpha catalog: author's requests and options
	"author.Options.Pull":                       "--pull",
	"author.Options.Force":                      "--force",
	"author.Repo.Root":                          "--root",
	"author.Repo.Expand":                        "opm alpha catalog render %s --dry-run",
	"author.ReleaseRequest.BundleDir":           "the bundle directory (operators/<pkg>/<version>)",
	"author.ReleaseRequest.Image":               "--image",
	"author.ReleaseRequest.NewChannel":          "--new-channel",
	"author.ReleaseRequest.Target.Channels":     "--channel",
	"author.ReleaseRequest.Target.TemplateFile": "--template",
	"author.ReleaseRequest.Target.Replaces":     "--replaces",
	"author.ReleaseRequest.Target.Skips":        "--skips",
	"author.ReleaseRequest.Target.SkipRange":    "--skip-range",
	"author.PromoteRequest.Bundle":              "the <bundle> argument",
	"author.PromoteRequest.Channel":             "--to",
	"author.PromoteRequest.Replaces":            "--replaces",
	"author.PromoteRequest.Skips":               "--skips",
	"author.PromoteRequest.SkipRange":           "--skip-range",
	"author.PromoteRequest.NewChannel":          "--new-channel",
	"author.RemoveRequest.Bundle":               "the <bundle> argument",
	"author.DeprecateRequest.Bundle":            "--bundle",
	"author.DeprecateRequest.Channel":           "--channel",
	"author.DeprecateRequest.Package":           "--package",
	"author.DefaultChannelRequest.Channel":      "the <channel> argument",
	"alpha/bundle.Options.Directory":            "--directory",
	"alpha/bundle.Options.Package":              "--package",
	"alpha/bundle.Options.Channels":             "--channels",
	"alpha/bundle.Options.Overwrite":            "--overwrite",
	"alpha/bundle.Build.Tag":                    "--tag",
	"alpha/bundle.Build.Builder":                "--image-builder",
	"alpha/bundle.UnpackOptions.SkipValidation": "--skip-validation",
	"alpha/filter.Selection.Config":             "--config",
	"alpha/filter.Selection.Packages":           "--package",
	"catalogimage.Options.Tag":                  "--tag",
	"catalogimage.Options.Base":                 "--base-image",
	"image.Options.Insecure":                    "--skip-tls-verify for a self-signed certificate or --use-http for a plain-HTTP registry",
	"image.Options.Platform":                    "--platform",
	"lint.Options.Previous":                     "--previous",
	"lint.Options.Baseline":                     "--baseline",
	"lint.Options.Released":                     "--released",
	"lint.Options.Rules":                        "--rule",
	"lint.Options.Disable":                      "--disable",
	"lint.Options.Target":                       "--target",
	"lint/report.Options.FailOn":                "--fail-on",
	"lint/report.Options.Summary":               "--summary",
	"olmv1.ManifestOptions.InstallNamespace":    "--namespace",
	"olmv1.ManifestOptions.WatchNamespace":      "--watch-namespace",
	"olmv1.RBACOptions.ExtensionName":           "--extension-name",
	"olmv1.RBACOptions.ServiceAccount":          "--service-account",
	"serve.RunOptions.Addr":                     "-p/--port",
	"serve.RunOptions.HTTPAddr":                 "--http-addr",
	"serve.RunOptions.CacheDir":                 "--cache-dir",
	"serve.RunOptions.CacheIntegrity":           "--cache-enforce-integrity",
	"validate.PackageOptions.DefaultChannel":    "--default-channel",
	"validate.Options.Schemas":                  "--schema",
	"validate.Output.MaxProblems":               "--max-problems",
}

// sayOptions is err with every option.Error in it said with this
// command line's flags (flagOf); err stays in the chain (exit codes ask
// it).
func sayOptions(err error) error {
	all := option.All(err)
	if len(all) == 0 {
		return err
	}
	msg := err.Error()
	for _, oe := range all {
		msg = strings.ReplaceAll(msg, oe.Error(), oe.Say(flagOf))
	}
	return &rephrased{msg: msg, err: err}
}

// said is err's message with its options said with this command line's
// flags.
func said(err error) string { return sayOptions(err).Error() }

// rephrased is an error in the command line's words: Error is msg, and
// the library's error stays in the chain (exit codes ask it).
type rephrased struct {
	msg string
	err error
}

func (e *rephrased) Error() string { return e.msg }
func (e *rephrased) Unwrap() error { return e.err }

// check checks options or a request by the library's rules (their
// Validate) and says what is wrong in the command's words: bad values
// each on a line of its own, with no page of usage (the line names the
// flag and the value); a missing flag or flags that conflict with the
// usage after them.
func check(o interface{ Validate() error }) error {
	err := o.Validate()
	if err == nil {
		return nil
	}
	invalid := true
	for _, e := range option.Joined(err) {
		var oe *option.Error
		if !errors.As(e, &oe) {
			return err // in words of its own
		}
		invalid = invalid && oe.Kind == option.Invalid
	}
	if invalid {
		return &briefUsageError{msg: said(err), err: err}
	}
	return usageError{sayOptions(err)}
}
