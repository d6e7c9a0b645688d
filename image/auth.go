package image

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docker/cli/cli/config"
	"github.com/docker/cli/cli/config/configfile"
	"github.com/docker/cli/cli/config/types"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
)

// Keychain finds registry credentials the way podman and docker users
// expect, in this order, the first file with credentials for the registry
// winning: $REGISTRY_AUTH_FILE; the docker config ($DOCKER_CONFIG/config.json,
// or ~/.docker/config.json), with its credential helpers;
// $XDG_RUNTIME_DIR/containers/auth.json (podman login);
// $XDG_CONFIG_HOME/containers/auth.json (or ~/.config/containers/auth.json).
// Without credentials, pulls are anonymous.
type Keychain struct{}

// AuthFiles lists the files Keychain reads, in order, whether or not they
// exist.
func AuthFiles() []string {
	var files []string
	if f := os.Getenv("REGISTRY_AUTH_FILE"); f != "" {
		files = append(files, f)
	}
	dockerDir := os.Getenv("DOCKER_CONFIG")
	if dockerDir == "" {
		dockerDir = config.Dir()
	}
	files = append(files, filepath.Join(dockerDir, config.ConfigFileName))
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		files = append(files, filepath.Join(d, "containers", "auth.json"))
	}
	configHome := os.Getenv("XDG_CONFIG_HOME")
	if configHome == "" {
		if home, err := os.UserHomeDir(); err == nil {
			configHome = filepath.Join(home, ".config")
		}
	}
	if configHome != "" {
		files = append(files, filepath.Join(configHome, "containers", "auth.json"))
	}
	return files
}

// Resolve implements authn.Keychain.
func (k Keychain) Resolve(target authn.Resource) (authn.Authenticator, error) {
	return k.ResolveContext(context.Background(), target)
}

// ResolveContext implements authn.ContextKeychain.
func (Keychain) ResolveContext(_ context.Context, target authn.Resource) (authn.Authenticator, error) {
	for _, file := range AuthFiles() {
		cf, err := loadAuthFile(file)
		if err != nil {
			return nil, err
		}
		if cf == nil {
			continue
		}
		for _, key := range authKeys(target) {
			cfg, err := cf.GetAuthConfig(key)
			if err != nil {
				return nil, fmt.Errorf("getting credentials for %s from auth file %s: %w", key, file, err)
			}
			cfg.ServerAddress = ""
			if cfg != (types.AuthConfig{}) {
				return authn.FromConfig(authn.AuthConfig{
					Username:      cfg.Username,
					Password:      cfg.Password,
					Auth:          cfg.Auth,
					IdentityToken: cfg.IdentityToken,
					RegistryToken: cfg.RegistryToken,
				}), nil
			}
		}
	}
	return authn.Anonymous, nil
}

// authKeys lists the keys credentials for target may be filed under, most
// specific first: podman files them by repository or namespace
// ("quay.io/org/repo", "quay.io/org") or registry, docker by registry;
// Docker Hub is "docker.io" for podman and "https://index.docker.io/v1/"
// for docker.
func authKeys(target authn.Resource) []string {
	registry := target.RegistryStr()
	hub := registry == name.DefaultRegistry || registry == "docker.io"
	if hub {
		registry = "docker.io"
	}
	var keys []string
	if repo, ok := target.(name.Repository); ok {
		p := repo.RepositoryStr()
		for p != "" && p != "." {
			keys = append(keys, registry+"/"+p)
			i := strings.LastIndex(p, "/")
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	keys = append(keys, registry)
	if hub {
		keys = append(keys, name.DefaultRegistry, authn.DefaultAuthKey)
	}
	return keys
}

// loadAuthFile reads a docker config or containers auth file; a missing
// file is no error.
func loadAuthFile(path string) (*configfile.ConfigFile, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading auth file: %w", err)
	}
	defer f.Close()
	cf, err := config.LoadFromReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading auth file %s: %w", path, err)
	}
	cf.Filename = path
	return cf, nil
}
