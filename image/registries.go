package image

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
	// SystemRegistriesConf is the system-wide registries.conf.
	SystemRegistriesConf = "/etc/containers/registries.conf"
	// SystemRegistriesConfDir holds the system-wide drop-in files.
	SystemRegistriesConfDir = "/etc/containers/registries.conf.d"
	// RegistriesConfEnv names a registries.conf to read in place of the
	// user's and the system's.
	RegistriesConfEnv = "CONTAINERS_REGISTRIES_CONF"
)

// RegistriesPaths are the containers-registries.conf files that pulls and
// pushes honour.
type RegistriesPaths struct {
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

// RegistriesPathsFromEnv finds the registries.conf files the way
// containers/image does: $CONTAINERS_REGISTRIES_CONF when set, else
// $HOME/.config/containers/registries.conf when it exists, else
// /etc/containers/registries.conf. Drop-ins come from
// /etc/containers/registries.conf.d and then
// $HOME/.config/containers/registries.conf.d, except that with the user's
// own registries.conf only the user's directory is read.
func RegistriesPathsFromEnv() RegistriesPaths {
	var userFile, userDir string
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		userFile = filepath.Join(home, ".config", "containers", "registries.conf")
		userDir = filepath.Join(home, ".config", "containers", "registries.conf.d")
	}
	if f := os.Getenv(RegistriesConfEnv); f != "" {
		return RegistriesPaths{File: f, Required: true, Dirs: nonEmpty(SystemRegistriesConfDir, userDir)}
	}
	if userFile != "" {
		if _, err := os.Stat(userFile); err == nil {
			return RegistriesPaths{File: userFile, Dirs: []string{userDir}}
		}
	}
	return RegistriesPaths{File: SystemRegistriesConf, Dirs: nonEmpty(SystemRegistriesConfDir, userDir)}
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

// Registries is a registries.conf configuration, read from its files
// once, when a pull or a push first needs it, so that commands that reach
// no registry never read it (and never fail on it). One value may be
// shared by the copies of an Options and used concurrently.
type Registries struct {
	paths RegistriesPaths
	once  sync.Once
	conf  *registriesConf
	err   error
	// insecureTransports maps a transport to its copy without TLS
	// verification.
	insecureTransports sync.Map
}

// NewRegistries is the configuration of the files p names.
func NewRegistries(p RegistriesPaths) *Registries { return &Registries{paths: p} }

// RegistriesFromEnv is the configuration of the files
// RegistriesPathsFromEnv finds.
func RegistriesFromEnv() *Registries { return NewRegistries(RegistriesPathsFromEnv()) }

// Paths are the files the configuration is read from.
func (r *Registries) Paths() RegistriesPaths {
	if r == nil {
		return RegistriesPaths{}
	}
	return r.paths
}

// Load reads the files (once); nil has no [[registry]] entries. Pulls and
// pushes call it; callers may, to report a broken file early.
func (r *Registries) Load() error {
	_, err := r.load()
	return err
}

func (r *Registries) load() (*registriesConf, error) {
	if r == nil {
		return &registriesConf{}, nil
	}
	r.once.Do(func() { r.conf, r.err = loadRegistriesConf(r.paths) })
	return r.conf, r.err
}

// registriesConf is the merged configuration: the [[registry]] entries,
// one per prefix, sorted by prefix (as containers/image keeps them).
type registriesConf struct {
	entries []registryEntry
}

// registryEntry is one [[registry]] table.
type registryEntry struct {
	Prefix             string
	Location           string // "" only for a wildcard prefix: the reference's own host
	Insecure           bool
	Blocked            bool
	MirrorByDigestOnly bool
	Mirrors            []mirrorEntry
	File               string // the file that defined it
}

// mirrorEntry is one [[registry.mirror]] table.
type mirrorEntry struct {
	Location       string
	Insecure       bool
	PullFromMirror string // "", all, digest-only or tag-only
}

// The values of pull-from-mirror.
const (
	pullFromAll        = "all"
	pullFromDigestOnly = "digest-only"
	pullFromTagOnly    = "tag-only"
)

// find is the entry for a repository name (host/path, no tag or digest):
// the one with the longest prefix that matches it; on a tie in length
// the first in prefix order, as containers/image picks.
func (c *registriesConf) find(name string) *registryEntry {
	var best *registryEntry
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
