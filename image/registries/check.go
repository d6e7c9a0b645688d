package registries

import (
	"fmt"
	"strings"
)

// checkRegistries validates the [[registry]] tables of one file with
// containers/image's rules and normalizes them: trailing slashes go, the
// prefix defaults to the location, and of two tables with the same prefix
// the first is kept.
func checkRegistries(regs []tomlRegistry, file string) ([]Registry, error) {
	var all []Registry
	for i, r := range regs {
		e, err := checkRegistry(r, file)
		if err != nil {
			return nil, fmt.Errorf("[[registry]] #%d: %w", i+1, err)
		}
		all = append(all, e)
	}
	if err := checkConflicts(all); err != nil {
		return nil, err
	}
	var entries []Registry
	seen := map[string]bool{}
	for _, e := range all {
		if !seen[e.Prefix] {
			seen[e.Prefix] = true
			entries = append(entries, e)
		}
	}
	return entries, nil
}

func checkRegistry(r tomlRegistry, file string) (Registry, error) {
	e := Registry{Insecure: r.Insecure, Blocked: r.Blocked, mirrorByDigestOnly: r.MirrorByDigestOnly, File: file}
	var err error
	if e.location, err = checkLocation(r.Location, "location"); err != nil {
		return e, err
	}
	if e.Prefix, err = checkLocation(r.Prefix, "prefix"); err != nil {
		return e, err
	}
	wildcard := strings.HasPrefix(e.Prefix, "*.")
	switch {
	case e.Prefix == "" && e.location == "":
		return e, fmt.Errorf("both location and prefix are unset: set location (and prefix, to remap a namespace)")
	case e.Prefix == "":
		e.Prefix = e.location
	case e.location == "" && !wildcard:
		return e, fmt.Errorf("prefix %q has no location: set location, or write the prefix as *.example.com to match subdomains", e.Prefix)
	}
	if wildcard && strings.ContainsAny(e.Prefix, "/@:") {
		return e, fmt.Errorf("wildcard prefix %q must be a host pattern like *.example.com, with no port, path, tag or digest", e.Prefix)
	}
	if r.PullFromMirror != "" {
		return e, fmt.Errorf("prefix %q: pull-from-mirror belongs in a [[registry.mirror]] table, not in [[registry]]", e.Prefix)
	}
	for j, m := range r.Mirror {
		me, err := checkMirror(m, e)
		if err != nil {
			return e, fmt.Errorf("prefix %q, [[registry.mirror]] #%d: %w", e.Prefix, j+1, err)
		}
		e.mirrors = append(e.mirrors, me)
	}
	return e, nil
}

func checkMirror(m tomlMirror, reg Registry) (mirror, error) {
	loc, err := checkLocation(m.Location, "location")
	if err != nil {
		return mirror{}, err
	}
	if loc == "" {
		return mirror{}, fmt.Errorf("location is unset: set the mirror's host[:port][/path]")
	}
	switch m.PullFromMirror {
	case "", pullFromAll, pullFromDigestOnly, pullFromTagOnly:
	default:
		return mirror{}, fmt.Errorf("mirror %q: unsupported pull-from-mirror value %q: use all, digest-only or tag-only", loc, m.PullFromMirror)
	}
	if reg.mirrorByDigestOnly && m.PullFromMirror != "" {
		return mirror{}, fmt.Errorf("mirror %q: pull-from-mirror cannot be set when the registry sets mirror-by-digest-only: keep one of them", loc)
	}
	return mirror{location: loc, insecure: m.Insecure, pullFromMirror: m.PullFromMirror}, nil
}

// checkLocation trims trailing slashes and refuses URLs: a location is
// host[:port][/path].
func checkLocation(s, field string) (string, error) {
	s = strings.TrimRight(s, "/")
	if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
		return "", fmt.Errorf("%s %q: URI schemes are not supported: write host[:port][/path] (insecure = true allows plain HTTP)", field, s)
	}
	return s, nil
}

// checkConflicts refuses tables of the same location that disagree on
// insecure or blocked.
func checkConflicts(entries []Registry) error {
	first := map[string]Registry{}
	for _, e := range entries {
		key := e.location
		if key == "" {
			key = e.Prefix
		}
		prev, ok := first[key]
		if !ok {
			first[key] = e
			continue
		}
		if prev.Insecure != e.Insecure {
			return fmt.Errorf("registry %q is defined more than once with different insecure settings: make them agree", key)
		}
		if prev.Blocked != e.Blocked {
			return fmt.Errorf("registry %q is defined more than once with different blocked settings: make them agree", key)
		}
	}
	return nil
}
