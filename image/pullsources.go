package image

import (
	"fmt"

	"github.com/distribution/reference"
	"github.com/google/go-containerregistry/pkg/name"

	"github.com/fbcat/opm/image/registries"
)

// pullSource is one place a pull may read an image from: a mirror or the
// primary location, with the reference rewritten for it.
type pullSource struct {
	ref      name.Reference
	insecure bool   // TLS verification off and plain HTTP allowed
	mirror   bool   // a [[registry.mirror]], not the primary location
	blocked  string // the file that blocks this source's location, if one does
}

// pullSources lists where a pull of ref reads from, in order: with no
// [[registry]] entry for it, ref itself; else the sources registries.conf
// gives it (mirrors, then the primary location). It also returns the
// entry (nil when none).
func pullSources(ref string, o Options) ([]pullSource, *registries.Registry, error) {
	r, named, reg, err := lookupRegistry(ref, o)
	if err != nil {
		return nil, nil, err
	}
	if reg == nil {
		return []pullSource{{ref: r, insecure: o.Insecure}}, nil, nil
	}
	if reg.Blocked {
		return nil, reg, fmt.Errorf("failed to pull image %q: registry %s is blocked in %s: pull from another registry, or remove blocked = true from that [[registry]] table", ref, reg.Prefix, reg.File)
	}
	found, err := o.Registries.Sources(reg, named)
	if err != nil {
		return nil, reg, err
	}
	sources := make([]pullSource, 0, len(found))
	for _, s := range found {
		insecure := o.Insecure || s.Insecure
		r, err := ParseReference(s.Ref, insecure)
		if err != nil {
			return nil, reg, fmt.Errorf("registries configuration %s: [[registry]] prefix %q rewrites %q to %q, which is no image reference: fix its location: %w", reg.File, reg.Prefix, named.String(), s.Ref, err)
		}
		sources = append(sources, pullSource{ref: r, insecure: insecure, mirror: s.Mirror, blocked: s.BlockedBy})
	}
	return sources, reg, nil
}

// lookupRegistry parses ref and finds the [[registry]] entry of the
// configuration that governs it (nil when none does). Pulls and pushes
// both start here.
func lookupRegistry(ref string, o Options) (name.Reference, reference.Named, *registries.Registry, error) {
	r, err := ParseReference(ref, o.Insecure)
	if err != nil {
		return nil, nil, nil, err
	}
	named, err := reference.ParseNamed(ref)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("invalid image reference %q: %w", ref, err)
	}
	reg, err := o.Registries.Lookup(named.Name())
	if err != nil {
		return nil, nil, nil, err
	}
	return r, named, reg, nil
}
