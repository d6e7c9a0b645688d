// Package generate writes the files that turn a catalog directory into a
// catalog image: a Dockerfile, exactly as upstream's
// `opm generate dockerfile` writes it.
package generate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fbcat/opm/internal/labels"
)

// DefaultImage is the default base and builder image.
const DefaultImage = "quay.io/operator-framework/opm:latest"

// Dockerfile describes a catalog image build.
type Dockerfile struct {
	// CatalogDir is the catalog directory, as the user named it.
	CatalogDir string
	// BaseImage is the image the catalog image is based on; "scratch" makes
	// a binary-less image (OLM extracts the content itself).
	BaseImage string
	// BuilderImage runs `opm serve --cache-only` to build the serve cache;
	// it must contain /bin/opm, so it cannot be scratch.
	BuilderImage string
	// Labels are extra image labels.
	Labels map[string]string
}

// Path returns where the Dockerfile goes: beside the catalog directory,
// named after it ("catalog" -> "catalog.Dockerfile"). The directory is
// resolved first, so "." is named after the current directory (upstream
// writes "./..Dockerfile" instead).
func (d Dockerfile) Path() (dockerfile, contextDir, name string, err error) {
	abs, err := filepath.Abs(d.CatalogDir)
	if err != nil {
		return "", "", "", err
	}
	name = filepath.Base(abs)
	if name == string(filepath.Separator) || name == "." {
		return "", "", "", fmt.Errorf("cannot generate a Dockerfile for %q: the catalog directory needs a parent directory to be the build context", d.CatalogDir)
	}
	clean := filepath.Clean(d.CatalogDir)
	contextDir = filepath.Dir(clean)
	if filepath.Base(clean) != name {
		// "." or "..": use the resolved path.
		contextDir = filepath.Dir(abs)
	}
	return filepath.Join(contextDir, name+".Dockerfile"), contextDir, name, nil
}

func (d Dockerfile) check() error {
	if d.BaseImage == "" {
		return errors.New("base image is unset")
	}
	if d.BuilderImage == "" {
		return errors.New("builder image is unset")
	}
	if d.BuilderImage == "scratch" {
		return fmt.Errorf("invalid builder image: %q (the builder runs /bin/opm to build the serve cache; use an image with opm, such as %s)", "scratch", DefaultImage)
	}
	for k := range d.Labels {
		if k == "" {
			return errors.New("invalid label: empty key")
		}
	}
	return nil
}

// Render returns the Dockerfile's content for a catalog directory named
// name in the build context.
func (d Dockerfile) Render(name string) ([]byte, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `# The builder image is expected to contain
# /bin/opm (with serve subcommand)
FROM %s as builder

# Copy FBC root into image at /configs and pre-populate serve cache
ADD %s /configs
RUN ["/bin/opm", "serve", "/configs", "--cache-dir=/tmp/cache", "--cache-only"]

FROM %s
`, d.BuilderImage, name, d.BaseImage)
	if d.BaseImage == "scratch" {
		b.WriteString(`# OLMv0 CatalogSources that use binary-less images must set:
# spec:
#   grpcPodConfig:
#     extractContent:
#       catalogDir: /configs
#       cacheDir: /tmp/cache
`)
	} else {
		b.WriteString(`# The base image is expected to contain
# /bin/opm (with serve subcommand) and /bin/grpc_health_probe

# Configure the entrypoint and command
ENTRYPOINT ["/bin/opm"]
CMD ["serve", "/configs", "--cache-dir=/tmp/cache"]
`)
	}
	fmt.Fprintf(&b, `
COPY --from=builder /configs /configs
COPY --from=builder /tmp/cache /tmp/cache

# Set FBC-specific label for the location of the FBC root directory
# in the image
LABEL %s=/configs
`, labels.Configs)
	if len(d.Labels) > 0 {
		b.WriteString("\n# Set other custom labels\n")
		keys := make([]string, 0, len(d.Labels))
		for k := range d.Labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "LABEL %s=%s\n", quoteLabel(k), quoteLabel(d.Labels[k]))
		}
	}
	return b.Bytes(), nil
}

// quoteLabel double-quotes a label key or value as upstream does, escaping
// the characters that would end the quoted string (upstream does not).
func quoteLabel(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// ParseLabels turns "key=value" strings into labels; the value may hold
// further "=" signs and later keys win.
func ParseLabels(items []string) (map[string]string, error) {
	labels := map[string]string{}
	for _, item := range items {
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("invalid label %q: write key=value", item)
		}
		labels[k] = v
	}
	return labels, nil
}

// Write checks the catalog directory and writes the Dockerfile beside it,
// refusing to replace an existing file. It returns the file's path.
func (d Dockerfile) Write() (string, error) {
	path, _, name, err := d.Path()
	if err != nil {
		return "", err
	}
	if _, err := os.Lstat(path); err == nil {
		return "", fmt.Errorf("path %q: file already exists; opm does not overwrite it (remove it to generate a new one)", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	st, err := os.Stat(d.CatalogDir)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("provided root path %q is not a directory", d.CatalogDir)
	}
	content, err := d.Render(name)
	if err != nil {
		return "", err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("path %q: file already exists; opm does not overwrite it (remove it to generate a new one)", path)
		}
		return "", err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		os.Remove(path)
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return "", err
	}
	return path, nil
}
