package main

import (
	"errors"
	"fmt"

	"github.com/fbcat/opm/internal/image"
)

// optionFlags say, for each image option an error may name, how a user
// sets it.
var optionFlags = map[string]string{
	image.OptionInsecure: "for a self-signed certificate use --skip-tls-verify, for a plain-HTTP registry --use-http",
	image.OptionPlatform: "choose another with --platform",
}

// withFlagHint adds to an error that another value of an image option may
// fix the flag that sets the option. run applies it to every command's
// error, so that a command pulling images needs nothing of its own.
func withFlagHint(err error) error {
	var oe *image.OptionError
	if errors.As(err, &oe) {
		if hint, ok := optionFlags[oe.Option]; ok {
			return fmt.Errorf("%w (%s)", err, hint)
		}
	}
	return err
}
