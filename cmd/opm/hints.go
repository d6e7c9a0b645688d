package main

import (
	"errors"
	"fmt"

	"github.com/fbcat/opm/internal/image"
)

// withFlagHint adds to an error that another value of an image option may
// fix the flag that sets the option. run applies it to every command's
// error, so that a command pulling images needs nothing of its own.
func withFlagHint(err error) error {
	var oe *image.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	switch oe.Option {
	case image.OptionInsecure:
		return fmt.Errorf("%w (for a self-signed certificate use --skip-tls-verify, for a plain-HTTP registry --use-http)", err)
	case image.OptionPlatform:
		return fmt.Errorf("%w (choose another with --platform)", err)
	}
	return err
}
