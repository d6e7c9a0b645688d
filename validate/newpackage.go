package validate

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/option"
)

// PackageOptions are what a new package's olm.package blob holds (opm
// init): its name, default channel, and the files of its icon and
// description.
type PackageOptions struct {
	Name           string
	DefaultChannel string
	// DefaultChannelGiven says DefaultChannel was given, even empty.
	DefaultChannelGiven bool
	IconFile            string
	DescriptionFile     string
}

// Validate refuses a package name that Validate would refuse, and a
// default channel given empty.
func (o PackageOptions) Validate() error {
	if o.Name == "" {
		return errors.New("the package name is empty: give the name of the package, e.g. opm init my-operator")
	}
	if msgs := PackageNameProblems(o.Name); len(msgs) > 0 {
		err := fmt.Sprintf("invalid package name %q: %s", o.Name, strings.Join(msgs, "; "))
		if s := labelLike(o.Name); s != "" {
			err += fmt.Sprintf("; for instance opm init %s", s)
		}
		return errors.New(err)
	}
	if o.DefaultChannelGiven && o.DefaultChannel == "" {
		n := option.Name("validate.PackageOptions.DefaultChannel")
		return option.Errorf(option.Invalid, "%s is empty: name the channel that subscriptions default to (e.g. %s), or leave it out", n, option.With{Name: n, Value: "stable"})
	}
	return nil
}

// NewPackage makes the olm.package blob of a new package: upstream's
// opm init writes whatever it is given, but a blob that Validate would
// refuse is no start for a package.
func NewPackage(o PackageOptions) (*declcfg.Package, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	pkg := &declcfg.Package{Schema: declcfg.SchemaPackage, Name: o.Name, DefaultChannel: o.DefaultChannel}
	if o.IconFile != "" {
		data, err := os.ReadFile(o.IconFile)
		if err != nil {
			return nil, fmt.Errorf("open icon file: %w", err)
		}
		mediaType, err := declcfg.IconMediaType(data)
		if err != nil {
			return nil, fmt.Errorf("icon file %s: %w", declcfg.QuoteFileName(o.IconFile), err)
		}
		pkg.Icon = &declcfg.Icon{Data: data, MediaType: mediaType}
	}
	if o.DescriptionFile != "" {
		data, err := os.ReadFile(o.DescriptionFile)
		if err != nil {
			return nil, fmt.Errorf("open description file: %w", err)
		}
		pkg.Description = string(data)
	}
	return pkg, nil
}

// labelLike is name made a valid package name (lower case, runs of other
// characters as one '-', at most 63 characters), or "" if nothing is left.
func labelLike(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	s := b.String()
	if len(s) > 63 {
		s = strings.TrimRight(s[:63], "-")
	}
	return s
}
