// Package registries reads containers-registries.conf(5) and its
// registries.conf.d drop-ins as containers/image does, and answers what
// image pulls and pushes ask of them: which [[registry]] table governs a
// reference (Lookup), and where a pull of it reads from, mirrors first,
// with the reference rewritten for each location (Sources).
package registries

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// The places containers-registries.conf(5) and
// containers-registries.conf.d(5) are read from, as containers/image
// reads them.
const (
	// SystemConf is the system-wide registries.conf.
	SystemConf = "/etc/containers/registries.conf"
	// SystemConfDir holds the system-wide drop-in files.
	SystemConfDir = "/etc/containers/registries.conf.d"
	// ConfEnv names a registries.conf to read in place of the user's and
	// the system's.
	ConfEnv = "CONTAINERS_REGISTRIES_CONF"
)

// Paths are the containers-registries.conf files that pulls and pushes
// honour.
type Paths struct {
	// File is the main registries.conf.
	File string
	// Required makes a missing File an error: it was named on purpose
	// (CONTAINERS_REGISTRIES_CONF). Otherwise a missing File is no
	// configuration at all.
	Required bool
	// Dirs are registries.conf.d directories: their *.conf files (not
	// subdirectories) are applied after File, directory by directory, each
	// directory's files in lexical order. Missing directories are skipped.
	Dirs []string
}

// PathsFromEnv finds the registries.conf files the way containers/image
// does: $CONTAINERS_REGISTRIES_CONF when set, else
// $HOME/.config/containers/registries.conf when it exists, else
// /etc/containers/registries.conf. Drop-ins come from
// /etc/containers/registries.conf.d and then
// $HOME/.config/containers/registries.conf.d, except that with the user's
// own registries.conf only the user's directory is read.
func PathsFromEnv() Paths {
	var userFile, userDir string
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		userFile = filepath.Join(home, ".config", "containers", "registries.conf")
		userDir = filepath.Join(home, ".config", "containers", "registries.conf.d")
	}
	if f := os.Getenv(ConfEnv); f != "" {
		return Paths{File: f, Required: true, Dirs: nonEmpty(SystemConfDir, userDir)}
	}
	if userFile != "" {
		if _, err := os.Stat(userFile); err == nil {
			return Paths{File: userFile, Dirs: []string{userDir}}
		}
	}
	return Paths{File: SystemConf, Dirs: nonEmpty(SystemConfDir, userDir)}
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Config is a registries.conf configuration, read from its files once,
// when a pull or a push first needs it, so that commands that reach no
// registry never read it (and never fail on it). One value may be shared
// by the copies of image.Options and used concurrently; nil is a
// configuration without [[registry]] tables.
type Config struct {
	paths Paths
	once  sync.Once
	conf  *merged
	err   error
	// insecureTransports maps a transport to its copy without TLS
	// verification (see SkipVerify).
	insecureTransports sync.Map
}

// New is the configuration of the files p names.
func New(p Paths) *Config { return &Config{paths: p} }

// FromEnv is the configuration of the files PathsFromEnv finds.
func FromEnv() *Config { return New(PathsFromEnv()) }

// Paths are the files the configuration is read from.
func (c *Config) Paths() Paths {
	if c == nil {
		return Paths{}
	}
	return c.paths
}

// Load reads the files (once); nil has no [[registry]] tables. Lookup
// calls it; callers may, to report a broken file early.
func (c *Config) Load() error {
	_, err := c.load()
	return err
}

func (c *Config) load() (*merged, error) {
	if c == nil {
		return &merged{}, nil
	}
	c.once.Do(func() { c.conf, c.err = loadFiles(c.paths) })
	return c.conf, c.err
}

// Lookup is the [[registry]] table that governs a repository name
// (host/path, no tag or digest), nil when none does. It reads the files
// on first use, and fails when they are broken.
func (c *Config) Lookup(name string) (*Registry, error) {
	conf, err := c.load()
	if err != nil {
		return nil, err
	}
	return conf.find(name), nil
}

// merged is the merged configuration: the [[registry]] tables, one per
// prefix, sorted by prefix (as containers/image keeps them).
type merged struct {
	entries []Registry
}

// Registry is one [[registry]] table, checked and normalized.
type Registry struct {
	// Prefix is the part of references the table governs: a name prefix
	// or a wildcard host (*.example.com).
	Prefix string
	// Insecure turns TLS verification off and allows plain HTTP for the
	// primary location.
	Insecure bool
	// Blocked refuses pulls and pushes of the references it governs.
	Blocked bool
	// File is the file that defined the table.
	File string

	location           string // "" only for a wildcard prefix: the reference's own host
	mirrorByDigestOnly bool
	mirrors            []mirror
}

// mirror is one [[registry.mirror]] table.
type mirror struct {
	location       string
	insecure       bool
	pullFromMirror string // "", all, digest-only or tag-only
}

// find is the entry for a repository name (host/path, no tag or digest):
// the one with the longest prefix that matches it; on a tie in length
// the first in prefix order, as containers/image picks.
func (c *merged) find(name string) *Registry {
	var best *Registry
	for i := range c.entries {
		e := &c.entries[i]
		if matchPrefix(name, e.Prefix) < 0 {
			continue
		}
		if best == nil || len(e.Prefix) > len(best.Prefix) {
			best = e
		}
	}
	return best
}

// matchPrefix is the length of the part of ref (a name or a full
// reference) that prefix matches, or -1. A prefix matches at a boundary:
// the end of ref, or ':', '/' or '@' after it. A wildcard prefix
// (*.example.com) matches hosts that end in .example.com, not
// example.com itself.
func matchPrefix(ref, prefix string) int {
	if strings.HasPrefix(prefix, "*.") {
		suffix := prefix[1:]
		host, _, _ := strings.Cut(ref, "/")
		i := strings.Index(host, suffix)
		if i < 0 {
			return -1
		}
		return atBoundary(ref, i+len(suffix))
	}
	if !strings.HasPrefix(ref, prefix) {
		return -1
	}
	return atBoundary(ref, len(prefix))
}

func atBoundary(ref string, n int) int {
	if n == len(ref) || strings.ContainsRune(":/@", rune(ref[n])) {
		return n
	}
	return -1
}
