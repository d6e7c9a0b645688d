package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/render"
)

// Images: a bundle image is linted as its files, annotations included; a
// catalog image as a catalog.
func TestImages(t *testing.T) {
	imagetest.IsolateAuth(t)
	reg := imagetest.Registry(t, "", "")
	dir := bundleDir(t, t.TempDir(), testCSV(csvOpts{}), annotationsYAML("  com.redhat.openshift.versions: v4.11-v4.13\n"),
		map[string]string{"etcd-backup.yaml": cronJobV1beta1})
	imagetest.Push(t, reg+"/etcd-bundle:v0.9.4", imagetest.Image(t, map[string]string{labels.Package: "etcd"}, nil, imagetest.DirLayer(t, dir, "")))
	cat := t.TempDir()
	linttest.WriteFiles(t, cat, map[string]string{"etcd/catalog.yaml": linttest.ChainCatalog("  - name: etcdoperator.v0.9.2\n    replaces: etcdoperator.v0.9.1\n", "0.9.2")})
	imagetest.Push(t, reg+"/catalog:v1", imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil, imagetest.DirLayer(t, cat, "configs")))

	opts := Options{Rules: []string{ruleRemovedAPI, ruleDangling}, Images: &render.Renderer{}}
	got := run(t, []string{reg + "/etcd-bundle:v0.9.4"}, opts).Findings
	want := reg + "/etcd-bundle:v0.9.4/manifests/etcd-backup.yaml"
	if len(got) != 1 || filepath.ToSlash(got[0].File) != want || got[0].Line != 1 || !strings.Contains(got[0].Message, "v4.11-v4.13") {
		t.Fatalf("want one finding in %s, got:%s", want, dump(got))
	}
	got = run(t, []string{reg + "/catalog:v1"}, opts).Findings
	if len(got) != 1 || got[0].Rule != ruleDangling || !strings.HasPrefix(got[0].File, reg+"/catalog:v1/configs/etcd/catalog.yaml") {
		t.Fatalf("want one dangling reference in the image, got:%s", dump(got))
	}
}
