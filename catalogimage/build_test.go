package catalogimage_test

import (
	"archive/tar"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/fbcat/opm/catalogimage"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
)

var (
	amd64 = v1.Platform{OS: "linux", Architecture: "amd64"}
	arm64 = v1.Platform{OS: "linux", Architecture: "arm64"}
)

// pushOpmBase pushes a linux/amd64 + linux/arm64 base whose /bin/opm is
// a Go binary of module (or holds body when module is empty).
func pushOpmBase(t *testing.T, reg, repo, module string) string {
	t.Helper()
	body := "#!/bin/sh\n"
	if module != "" {
		body = string(imagetest.GoBinary(t, module))
	}
	var imgs []v1.Image
	for _, p := range []v1.Platform{amd64, arm64} {
		l := imagetest.Layer(t, imagetest.Entry{Name: "bin/", Type: '5'}, imagetest.Entry{Name: "bin/opm", Body: body},
			imagetest.Entry{Name: "etc/arch", Body: p.Architecture})
		imgs = append(imgs, imagetest.Image(t, map[string]string{"from-base": "yes"}, &p, l))
	}
	ref := reg + "/" + repo + ":v1"
	imagetest.PushIndex(t, ref, imgs...)
	return ref
}

func catalogDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../testdata/catalog")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// config reads the configuration of a pushed image's platform.
func config(t *testing.T, ref string, p v1.Platform) *v1.ConfigFile {
	t.Helper()
	r, err := name.ParseReference(ref, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	img, err := remote.Image(r, remote.WithPlatform(p))
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	return cf
}

// TestBuildTwoPlatforms: every platform of the base by default, labels,
// entrypoint and command of the generated Dockerfile, the same digest
// for the same input wherever it is written.
func TestBuildTwoPlatforms(t *testing.T) {
	imagetest.IsolateAuth(t)
	ctx := context.Background()
	reg := imagetest.Registry(t, "", "")
	base := pushOpmBase(t, reg, "opm", "github.com/fbcat/opm")
	o := catalogimage.Options{Dir: catalogDir(t), Base: base, Tag: reg + "/catalog:v1", Labels: map[string]string{"team": "a"}}
	res, err := catalogimage.Build(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Platforms) != 2 || res.Platforms[0].Platform != "linux/amd64" || res.Platforms[1].Platform != "linux/arm64" || res.Size < 1000 || len(res.Warnings) != 0 {
		t.Fatalf("result %+v", res)
	}
	for _, p := range []v1.Platform{amd64, arm64} {
		cf := config(t, o.Tag, p)
		wantLabels := map[string]string{"from-base": "yes", "team": "a", "operators.operatorframework.io.index.configs.v1": "/configs"}
		if !reflect.DeepEqual(cf.Config.Labels, wantLabels) || cf.Architecture != p.Architecture {
			t.Errorf("%s: labels %v, architecture %s", p, cf.Config.Labels, cf.Architecture)
		}
		if strings.Join(cf.Config.Entrypoint, " ") != "/bin/opm" || strings.Join(cf.Config.Cmd, " ") != "serve /configs --cache-dir=/tmp/cache" {
			t.Errorf("%s: entrypoint %q, cmd %q", p, cf.Config.Entrypoint, cf.Config.Cmd)
		}
		if n := len(cf.History); n != 6 || !strings.HasPrefix(cf.History[1].CreatedBy, "COPY catalog /configs /tmp/cache") || cf.Created.Unix() != 0 {
			t.Errorf("%s: history %+v, created %s", p, cf.History, cf.Created)
		}
	}
	archive := filepath.Join(t.TempDir(), "catalog.tar")
	o.Tag = "oci-archive:" + archive
	again, err := catalogimage.Build(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, res) {
		t.Errorf("second build %+v, first %+v", again, res)
	}
	img, err := image.Pull(ctx, o.Tag, image.Options{Platform: &arm64})
	if err != nil || img.Labels["team"] != "a" {
		t.Fatalf("pull the archive: %v, %v", img, err)
	}
	o.Labels = map[string]string{"team": "b"}
	other, err := catalogimage.Build(ctx, o)
	if err != nil || other.Digest == res.Digest {
		t.Errorf("another label: %v, %v; want another digest", other, err)
	}
}

// TestBuildOnePlatform: one platform makes an image, not an index; its
// base platform (with a variant) is matched by os/arch.
func TestBuildOnePlatform(t *testing.T) {
	imagetest.IsolateAuth(t)
	ctx := context.Background()
	base := pushOpmBase(t, imagetest.Registry(t, "", ""), "opm", "github.com/fbcat/opm")
	dir := filepath.Join(t.TempDir(), "layout")
	res, err := catalogimage.Build(ctx, catalogimage.Options{Dir: catalogDir(t), Base: base, Tag: "oci:" + dir + ":cat", Platforms: []v1.Platform{arm64}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := layout.FromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := p.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	im, err := idx.IndexManifest()
	if err != nil || len(im.Manifests) != 1 || !im.Manifests[0].MediaType.IsImage() || im.Manifests[0].Digest.String() != res.Digest {
		t.Fatalf("layout index %+v, %v; result %+v", im, err, res)
	}
	if len(res.Platforms) != 1 || res.Platforms[0].Digest != res.Digest {
		t.Errorf("result %+v", res)
	}
}

// TestBuildRefusals: a platform the base lacks, a base without opm, a
// catalog that cannot be served (the file named, nothing written), a
// read-only transport.
func TestBuildRefusals(t *testing.T) {
	imagetest.IsolateAuth(t)
	ctx := context.Background()
	reg := imagetest.Registry(t, "", "")
	base := pushOpmBase(t, reg, "opm", "github.com/fbcat/opm")
	noOpm := reg + "/busybox:v1"
	imagetest.Push(t, noOpm, imagetest.Image(t, nil, nil, imagetest.Layer(t, imagetest.Entry{Name: "bin/sh", Body: "x"})))
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "broken.yaml"), []byte("schema: olm.package\nname: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.tar")
	for _, c := range []struct {
		o    catalogimage.Options
		want string
	}{
		{catalogimage.Options{Base: base, Platforms: []v1.Platform{{OS: "linux", Architecture: "s390x"}}}, "has no image for platform linux/s390x: it has linux/amd64, linux/arm64"},
		{catalogimage.Options{Base: noOpm}, "it is not an opm image: it has no /bin/opm; use quay.io/operator-framework/opm or an image made with `make base-image`"},
		{catalogimage.Options{Base: base, Dir: bad}, "broken.yaml"},
		{catalogimage.Options{Base: base, Tag: "docker-archive:x.tar"}, "docker-archive: is read-only here"},
		{catalogimage.Options{Base: base, Tag: "-"}, "-"},
	} {
		if c.o.Dir == "" {
			c.o.Dir = catalogDir(t)
		}
		if c.o.Tag == "" {
			c.o.Tag = "oci-archive:" + out
		}
		if _, err := catalogimage.Build(ctx, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 0 {
		t.Errorf("written after failures: %v", entries)
	}
}

// TestBuildUpstreamBase: on upstream's opm the image runs serve with
// --cache-enforce-integrity=false, says so, and /tmp/cache is writable.
func TestBuildUpstreamBase(t *testing.T) {
	imagetest.IsolateAuth(t)
	ctx := context.Background()
	reg := imagetest.Registry(t, "", "")
	base := pushOpmBase(t, reg, "upstream", "github.com/operator-framework/operator-registry")
	tag := reg + "/catalog:v1"
	res, err := catalogimage.Build(ctx, catalogimage.Options{Dir: catalogDir(t), Base: base, Tag: tag})
	if err != nil {
		t.Fatal(err)
	}
	if mode := cacheMode(t, tag); mode != 0o777 {
		t.Errorf("/tmp/cache mode %o, want 777 (upstream's opm writes its cache there as any user)", mode)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "upstream's") {
		t.Errorf("warnings %q", res.Warnings)
	}
	cf := config(t, tag, amd64)
	if got := strings.Join(cf.Config.Cmd, " "); got != "serve /configs --cache-dir=/tmp/cache --cache-enforce-integrity=false" {
		t.Errorf("cmd %q", got)
	}
}

// cacheMode is the mode of tmp/cache in the top layer of ref's
// linux/amd64 image.
func cacheMode(t *testing.T, ref string) int64 {
	t.Helper()
	r, err := name.ParseReference(ref, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	img, err := remote.Image(r, remote.WithPlatform(amd64))
	if err != nil {
		t.Fatal(err)
	}
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	rc, err := layers[len(layers)-1].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("no tmp/cache/ in the layer: %v", err)
		}
		if h.Name == "tmp/cache/" {
			return h.Mode
		}
	}
}
