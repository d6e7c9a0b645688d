// Command baseimage writes a catalog base image, without a container
// engine: FROM scratch, with a static opm at /bin/opm and a static
// grpc_health_probe at /bin/grpc_health_probe (OLM's catalog pods probe
// with it), entrypoint /bin/opm, as quay.io/operator-framework/opm is
// laid out. make base-image runs it:
//
//	go run ./bench/cmd/baseimage -opm bin/opm -probe bin/tools/grpc_health_probe -o oci-archive:bin/opm-base.oci.tar
//
// The image's platform is the binaries' (from their Go build
// information); both must be static (CGO_ENABLED=0) and for the same
// one. Several -opm/-probe pairs make a multi-platform index. Its files and creation time are dated $SOURCE_DATE_EPOCH (default
// 1970-01-01), so the same binaries give the same image digest. Then:
//
//	opm alpha catalog build catalog --base-image oci-archive:bin/opm-base.oci.tar --tag oci-archive:catalog.tar
package main

import (
	"context"
	"debug/buildinfo"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"

	"github.com/fbcat/opm/image"
)

func main() {
	var opms, probes list
	flag.Var(&opms, "opm", "a static opm binary (repeat, with -probe, for more platforms; default bin/opm)")
	flag.Var(&probes, "probe", "the static grpc_health_probe for the same platform as the -opm of the same position (default bin/tools/grpc_health_probe)")
	out := flag.String("o", "oci-archive:bin/opm-base.oci.tar", "where to write the image (oci-archive:FILE, oci:DIR[:NAME] or a registry reference)")
	flag.Parse()
	if len(opms) == 0 && len(probes) == 0 {
		opms, probes = list{"bin/opm"}, list{"bin/tools/grpc_health_probe"}
	}
	if flag.NArg() != 0 || len(opms) != len(probes) {
		fmt.Fprintln(os.Stderr, "usage: baseimage [-opm FILE -probe FILE]... [-o TARGET]")
		os.Exit(2)
	}
	digest, platforms, err := run(context.Background(), opms, probes, *out)
	if err != nil {
		fmt.Fprintf(os.Stderr, "baseimage: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s (%s, %s)\n", *out, strings.Join(platforms, ", "), digest)
}

// list is a repeatable flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

// run writes the image (an index when there are several platforms) and
// returns its digest and platforms.
func run(ctx context.Context, opms, probes []string, out string) (string, []string, error) {
	when, err := image.SourceDateEpoch()
	if err != nil {
		return "", nil, err
	}
	var images []image.PlatformImage
	var names []string
	for i := range opms {
		pi, err := platformImage(ctx, opms[i], probes[i], when)
		if err != nil {
			return "", nil, err
		}
		images = append(images, pi)
		names = append(names, pi.Platform.OS+"/"+pi.Platform.Architecture)
	}
	var digest v1.Hash
	if len(images) == 1 {
		digest, err = image.Write(ctx, images[0].Image, out, image.Options{})
	} else {
		var idx v1.ImageIndex
		if idx, err = image.NewIndex(images); err == nil {
			digest, err = image.WriteIndex(ctx, idx, out, image.Options{})
		}
	}
	if err != nil {
		return "", nil, err
	}
	return digest.String(), names, nil
}

// platformImage builds the image of one platform.
func platformImage(ctx context.Context, opm, probe string, when time.Time) (image.PlatformImage, error) {
	var pi image.PlatformImage
	goos, goarch, err := staticPlatform(opm)
	if err != nil {
		return pi, err
	}
	if pos, parch, err := staticPlatform(probe); err != nil {
		return pi, err
	} else if pos != goos || parch != goarch {
		return pi, fmt.Errorf("%s is for %s/%s, %s for %s/%s: build both for one platform", opm, goos, goarch, probe, pos, parch)
	}
	tmp, err := os.MkdirTemp("", "opm-base-")
	if err != nil {
		return pi, err
	}
	defer os.RemoveAll(tmp)
	// The history names the directory: the same name every time.
	dir := filepath.Join(tmp, "opm-base")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return pi, err
	}
	for name, src := range map[string]string{"opm": opm, "grpc_health_probe": probe} {
		if err := copyFile(src, filepath.Join(dir, name)); err != nil {
			return pi, err
		}
	}
	img, err := image.Build(ctx, image.BuildSpec{Base: "scratch", Copies: []image.Copy{{Src: dir, Dst: "/bin"}}, Time: when}, image.Options{})
	if err != nil {
		return pi, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return pi, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = goos, goarch
	cf.Config.Entrypoint = []string{"/bin/opm"}
	cf.Config.Labels = map[string]string{"org.opencontainers.image.title": "opm catalog base (opm and grpc_health_probe, FROM scratch)"}
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		return pi, err
	}
	pi.Image, pi.Platform = img, v1.Platform{OS: goos, Architecture: goarch}
	return pi, nil
}

// staticPlatform reads a Go binary's target platform and checks that it
// was built without cgo, so that it runs FROM scratch.
func staticPlatform(file string) (goos, goarch string, err error) {
	info, err := buildinfo.ReadFile(file)
	if err != nil {
		return "", "", fmt.Errorf("%s: not a Go binary with build information: %w", file, err)
	}
	cgo := ""
	for _, s := range info.Settings {
		switch s.Key {
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		case "CGO_ENABLED":
			cgo = s.Value
		}
	}
	if cgo != "0" {
		return "", "", fmt.Errorf("%s was built with cgo and would not run FROM scratch: build it with CGO_ENABLED=0", file)
	}
	return goos, goarch, nil
}

// copyFile links src at dst (same file system), or copies it, executable.
func copyFile(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil // an executable, as staticPlatform found
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}
