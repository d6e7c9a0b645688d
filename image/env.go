package image

import (
	"io"
	"os"
	"path/filepath"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/fbcat/opm/image/registries"
)

// FromEnv is the options of a command that pulls images, from the
// environment: one transport for every pull (connections are reused),
// the registries.conf files (CONTAINERS_REGISTRIES_CONF,
// $HOME/.config/containers, /etc/containers) for mirrors, remapped
// locations, insecure and blocked registries, the layer cache under
// $OLM_CACHE_DIR, and a progress line on stderr when it is a terminal.
func FromEnv(insecure bool, platform *v1.Platform, stderr io.Writer) Options {
	o := Options{
		Insecure:   insecure,
		Platform:   platform,
		Transport:  DefaultTransport(insecure),
		Registries: registries.FromEnv(),
	}
	if dir := os.Getenv("OLM_CACHE_DIR"); dir != "" {
		o.CacheDir = filepath.Join(dir, "opm-layers")
	}
	if f, ok := stderr.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			o.Progress = f
		}
	}
	return o
}
