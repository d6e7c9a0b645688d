package registries

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/fbcat/opm/internal/fserr"
)

// registriesFile is what opm reads of a registries.conf: the V2
// [[registry]] tables and the V1 [registries.*] lists. The other V2
// settings are read only to tell a V2 file from a V1 one; opm resolves no
// short names, so unqualified-search-registries, short-name-mode and
// aliases do nothing here.
type registriesFile struct {
	Registry                    []tomlRegistry `toml:"registry"`
	UnqualifiedSearchRegistries []string       `toml:"unqualified-search-registries"`
	CredentialHelpers           []string       `toml:"credential-helpers"`
	ShortNameMode               string         `toml:"short-name-mode"`
	Aliases                     map[string]any `toml:"aliases"`
	LayerStoreAuthHelper        string         `toml:"additional-layer-store-auth-helper"`
	V1                          struct {
		Search   tomlV1List `toml:"search"`
		Insecure tomlV1List `toml:"insecure"`
		Block    tomlV1List `toml:"block"`
	} `toml:"registries"`
}

type tomlRegistry struct {
	Prefix             string       `toml:"prefix"`
	Location           string       `toml:"location"`
	Insecure           bool         `toml:"insecure"`
	Blocked            bool         `toml:"blocked"`
	MirrorByDigestOnly bool         `toml:"mirror-by-digest-only"`
	PullFromMirror     string       `toml:"pull-from-mirror"`
	Mirror             []tomlMirror `toml:"mirror"`
}

type tomlMirror struct {
	Location       string `toml:"location"`
	Insecure       bool   `toml:"insecure"`
	PullFromMirror string `toml:"pull-from-mirror"`
}

type tomlV1List struct {
	Registries []string `toml:"registries"`
}

func (f *registriesFile) isV1() bool {
	return f.V1.Search.Registries != nil || f.V1.Insecure.Registries != nil || f.V1.Block.Registries != nil
}

func (f *registriesFile) isV2() bool {
	return f.Registry != nil || f.UnqualifiedSearchRegistries != nil || f.CredentialHelpers != nil ||
		f.ShortNameMode != "" || f.Aliases != nil || f.LayerStoreAuthHelper != ""
}

// loadFiles reads the main file, then applies the drop-ins: an entry of a
// later file replaces the whole entry of the same prefix.
func loadFiles(p Paths) (*merged, error) {
	byPrefix := map[string]Registry{}
	entries, err := readRegistriesFile(p.File, false)
	switch {
	case errors.Is(err, fs.ErrNotExist) && p.Required:
		return nil, fmt.Errorf("registries configuration %s (named by %s) does not exist: create it or unset %s", p.File, ConfEnv, ConfEnv)
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	}
	for _, e := range entries {
		byPrefix[e.Prefix] = e
	}
	dropIns, err := dropInFiles(p.Dirs)
	if err != nil {
		return nil, err
	}
	for _, file := range dropIns {
		entries, err := readRegistriesFile(file, true)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since the directory was listed
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			byPrefix[e.Prefix] = e
		}
	}
	conf := &merged{}
	for _, e := range byPrefix {
		conf.entries = append(conf.entries, e)
	}
	sort.Slice(conf.entries, func(i, j int) bool { return conf.entries[i].Prefix < conf.entries[j].Prefix })
	return conf, nil
}

// dropInFiles lists the *.conf files of the directories, in order, each
// directory's in lexical order; subdirectories are not read.
func dropInFiles(dirs []string) ([]string, error) {
	var files []string
	for _, dir := range dirs {
		des, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading registries.conf.d directory %s: %w", dir, fserr.Cause(err))
		}
		for _, de := range des { // sorted by name
			if !de.IsDir() && strings.HasSuffix(de.Name(), ".conf") {
				files = append(files, filepath.Join(dir, de.Name()))
			}
		}
	}
	return files, nil
}

// readRegistriesFile parses one file into its entries. A drop-in must be
// in the V2 format.
func readRegistriesFile(path string, dropIn bool) ([]Registry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading registries configuration %s: %w", path, fserr.Cause(err))
	}
	var f registriesFile
	if err := toml.NewDecoder(bytes.NewReader(data)).Decode(&f); err != nil {
		return nil, tomlError(path, data, err)
	}
	var regs []tomlRegistry
	switch {
	case f.isV1() && dropIn:
		return nil, fmt.Errorf("registries configuration %s: drop-in files must use the version 2 format: replace [registries.insecure] and [registries.block] with [[registry]] tables (location = \"HOST\", insecure = true or blocked = true)", path)
	case f.isV1() && f.isV2():
		return nil, fmt.Errorf("registries configuration %s mixes the version 1 format ([registries.search], [registries.insecure], [registries.block]) with version 2 settings: use only [[registry]] tables and unqualified-search-registries", path)
	case f.isV1():
		regs = v1Registries(&f)
	default:
		regs = f.Registry
	}
	entries, err := checkRegistries(regs, path)
	if err != nil {
		return nil, fmt.Errorf("registries configuration %s: %w", path, err)
	}
	return entries, nil
}

// tomlError names the file, and the line and column when the TOML
// library gives them.
func tomlError(path string, data []byte, err error) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return fmt.Errorf("%s: invalid registries configuration: %w: fix it (see containers-registries.conf(5))", path, err)
	}
	row, col := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	if _, typ, ok := strings.Cut(msg, " of type "); ok && strings.Contains(msg, "into struct field") {
		key := "the value"
		if lines := strings.Split(string(data), "\n"); row >= 1 && row <= len(lines) {
			if k, _, ok := strings.Cut(lines[row-1], "="); ok {
				key = strings.TrimSpace(k)
			}
		}
		return fmt.Errorf("%s:%d:%d: invalid registries configuration: %s must be a%s: fix its value (see containers-registries.conf(5))", path, row, col, key, tomlType(typ))
	}
	return fmt.Errorf("%s:%d:%d: invalid registries configuration: %s: fix the TOML syntax (see containers-registries.conf(5))", path, row, col, msg)
}

// tomlType names a Go type of registriesFile the way TOML does, after
// "a".
func tomlType(goType string) string {
	switch {
	case goType == "bool":
		return " boolean (true or false)"
	case goType == "string":
		return " string"
	case strings.HasPrefix(goType, "[]"):
		return "n array"
	}
	return " table"
}

// v1Registries turns the V1 lists into [[registry]] tables, in the order
// registries first appear, blocked ones first, as containers/image does.
func v1Registries(f *registriesFile) []tomlRegistry {
	var regs []tomlRegistry
	index := map[string]int{}
	get := func(loc string) *tomlRegistry {
		loc = strings.TrimRight(loc, "/")
		i, ok := index[loc]
		if !ok {
			i = len(regs)
			index[loc] = i
			regs = append(regs, tomlRegistry{Location: loc})
		}
		return &regs[i]
	}
	for _, loc := range f.V1.Block.Registries {
		get(loc).Blocked = true
	}
	for _, loc := range f.V1.Insecure.Registries {
		get(loc).Insecure = true
	}
	return regs
}
