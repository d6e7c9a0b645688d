package image

import (
	"fmt"

	"github.com/distribution/reference"
	"github.com/google/go-containerregistry/pkg/name"
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
// [[registry]] entry for it, ref itself; else the mirrors its
// pull-from-mirror and mirror-by-digest-only settings allow, then the
// primary location. It also returns the entry (nil when none).
func pullSources(ref string, o Options) ([]pullSource, *registryEntry, error) {
	r, named, conf, reg, err := lookupRegistry(ref, o)
	if err != nil {
		return nil, nil, err
	}
	if reg == nil {
		return []pullSource{{ref: r, insecure: o.Insecure}}, nil, nil
	}
	if reg.Blocked {
		return nil, reg, fmt.Errorf("failed to pull image %q: registry %s is blocked in %s: pull from another registry, or remove blocked = true from that [[registry]] table", ref, reg.Prefix, reg.File)
	}
	_, digested := named.(reference.Canonical)
	var sources []pullSource
	for _, m := range reg.Mirrors {
		if !mirrorServes(m, reg.MirrorByDigestOnly, digested) {
			continue
		}
		s, err := rewriteSource(named, reg, m.Location, o.Insecure || m.Insecure, conf)
		if err != nil {
			return nil, reg, err
		}
		s.mirror = true
		sources = append(sources, s)
	}
	s, err := rewriteSource(named, reg, reg.Location, o.Insecure || reg.Insecure, conf)
	if err != nil {
		return nil, reg, err
	}
	return append(sources, s), reg, nil
}

// lookupRegistry parses ref and finds the [[registry]] entry of the
// configuration that governs it (nil when none does).
func lookupRegistry(ref string, o Options) (name.Reference, reference.Named, *registriesConf, *registryEntry, error) {
	r, err := ParseReference(ref, o.Insecure)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	named, err := reference.ParseNamed(ref)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("invalid image reference %q: %w", ref, err)
	}
	conf, err := o.Registries.load()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return r, named, conf, conf.find(named.Name()), nil
}

// mirrorServes reports whether a mirror is used for a reference by tag
// (digested false) or by digest.
func mirrorServes(m mirrorEntry, byDigestOnly, digested bool) bool {
	switch {
	case byDigestOnly:
		return digested
	case m.PullFromMirror == pullFromDigestOnly:
		return digested
	case m.PullFromMirror == pullFromTagOnly:
		return !digested
	}
	return true
}

// rewriteSource replaces the part of the reference that the entry's
// prefix matches by location (an empty location, for a wildcard prefix,
// keeps the reference).
func rewriteSource(named reference.Named, reg *registryEntry, location string, insecure bool, conf *registriesConf) (pullSource, error) {
	full := named.String()
	rewritten := full
	if location != "" {
		n := matchPrefix(full, reg.Prefix)
		if n < 0 {
			return pullSource{}, fmt.Errorf("registries configuration %s: prefix %q does not match %q", reg.File, reg.Prefix, full)
		}
		rewritten = location + full[n:]
	}
	r, err := ParseReference(rewritten, insecure)
	if err != nil {
		return pullSource{}, fmt.Errorf("registries configuration %s: [[registry]] prefix %q rewrites %q to %q, which is no image reference: fix its location: %w", reg.File, reg.Prefix, full, rewritten, err)
	}
	s := pullSource{ref: r, insecure: insecure}
	if rn, err := reference.ParseNamed(rewritten); err == nil {
		if other := conf.find(rn.Name()); other != nil && other.Blocked {
			s.blocked = other.File
		}
	}
	return s, nil
}
