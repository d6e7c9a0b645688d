package registries

import (
	"fmt"

	"github.com/distribution/reference"
)

// The values of pull-from-mirror.
const (
	pullFromAll        = "all"
	pullFromDigestOnly = "digest-only"
	pullFromTagOnly    = "tag-only"
)

// Source is one place a pull may read an image from: a mirror or the
// primary location, with the reference rewritten for it.
type Source struct {
	// Ref is the reference rewritten for this location.
	Ref string
	// Insecure is the table's insecure setting for this location: TLS
	// verification off and plain HTTP allowed.
	Insecure bool
	// Mirror is true for a [[registry.mirror]], false for the primary
	// location.
	Mirror bool
	// BlockedBy is the file that blocks the rewritten reference's
	// location, if one does.
	BlockedBy string
}

// Sources lists where a pull of named, which reg governs (see Lookup),
// reads from, in order: the mirrors reg's pull-from-mirror and
// mirror-by-digest-only settings allow, then the primary location.
// Whether reg itself is blocked is the caller's to check.
func (c *Config) Sources(reg *Registry, named reference.Named) ([]Source, error) {
	conf, err := c.load()
	if err != nil {
		return nil, err
	}
	_, digested := named.(reference.Canonical)
	var sources []Source
	for _, m := range reg.mirrors {
		if !mirrorServes(m, reg.mirrorByDigestOnly, digested) {
			continue
		}
		s, err := rewrite(named, reg, m.location, conf)
		if err != nil {
			return nil, err
		}
		s.Insecure, s.Mirror = m.insecure, true
		sources = append(sources, s)
	}
	s, err := rewrite(named, reg, reg.location, conf)
	if err != nil {
		return nil, err
	}
	s.Insecure = reg.Insecure
	return append(sources, s), nil
}

// mirrorServes reports whether a mirror is used for a reference by tag
// (digested false) or by digest.
func mirrorServes(m mirror, byDigestOnly, digested bool) bool {
	switch {
	case byDigestOnly:
		return digested
	case m.pullFromMirror == pullFromDigestOnly:
		return digested
	case m.pullFromMirror == pullFromTagOnly:
		return !digested
	}
	return true
}

// rewrite replaces the part of the reference that the entry's prefix
// matches by location (an empty location, for a wildcard prefix, keeps
// the reference), and notes the file that blocks the result, if one
// does.
func rewrite(named reference.Named, reg *Registry, location string, conf *merged) (Source, error) {
	full := named.String()
	rewritten := full
	if location != "" {
		n := matchPrefix(full, reg.Prefix)
		if n < 0 {
			return Source{}, fmt.Errorf("registries configuration %s: prefix %q does not match %q", reg.File, reg.Prefix, full)
		}
		rewritten = location + full[n:]
	}
	s := Source{Ref: rewritten}
	if rn, err := reference.ParseNamed(rewritten); err == nil {
		if other := conf.find(rn.Name()); other != nil && other.Blocked {
			s.BlockedBy = other.File
		}
	}
	return s, nil
}
