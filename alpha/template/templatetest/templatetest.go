// Package templatetest builds the bundle images that the catalog templates
// under testdata/templates reference and pushes them to an in-process
// registry, for tests and benchmarks. The images are made from the bundle
// skeleton testdata/templates/bundle exactly as e2e/templates.e2e.sh makes
// them with buildah (see testdata/templates/README.md), so that a template
// renders the same bytes from either.
package templatetest

import (
	"archive/tar"
	"bufio"
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
)

// Spec says how one bundle is made from the skeleton.
type Spec struct {
	Package, Version, Release string
	SubstitutesFor            string // the olm.substitutesFor annotation, if any
}

// Name is the bundle's name: <package>.v<version>, or
// <package>-v<version>-<release> with a release.
func (s Spec) Name() string {
	if s.Release != "" {
		return s.Package + "-v" + s.Version + "-" + s.Release
	}
	return s.Package + ".v" + s.Version
}

// Files returns the files of the bundle under skeleton (the directory
// testdata/templates/bundle), by slash path.
func (s Spec) Files(t testing.TB, skeleton string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(skeleton, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(skeleton, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = s.fill(string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// fill puts the spec into a skeleton file: lines naming an empty
// release or annotation are dropped, every placeholder is replaced.
func (s Spec) fill(text string) string {
	var out strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if (s.Release == "" && strings.Contains(line, "__RELEASE__")) || (s.SubstitutesFor == "" && strings.Contains(line, "__SUBSTITUTES_FOR__")) {
			continue
		}
		out.WriteString(line)
	}
	return strings.NewReplacer(
		"__PACKAGE__", s.Package,
		"__VERSION__", s.Version,
		"__RELEASE__", s.Release,
		"__NAME__", s.Name(),
		"__TAG__", "v"+strings.ReplaceAll(s.Version, "+", "-"),
		"__SUBSTITUTES_FOR__", s.SubstitutesFor,
	).Replace(out.String())
}

// Push builds the bundle image of spec and pushes it to ref.
func Push(t testing.TB, ref, skeleton string, spec Spec) {
	t.Helper()
	files := spec.Files(t, skeleton)
	var entries []imagetest.Entry
	dirs := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if dir := path.Dir(name); !dirs[dir] {
			dirs[dir] = true
			entries = append(entries, imagetest.Entry{Name: dir + "/", Type: tar.TypeDir})
		}
		entries = append(entries, imagetest.Entry{Name: name, Body: files[name]})
	}
	lbls := map[string]string{labels.Package: spec.Package, labels.MediaType: "registry+v1"}
	imagetest.Push(t, ref, imagetest.Image(t, lbls, nil, imagetest.Layer(t, entries...)))
}

// Images reads testdata/templates/images.txt: for each image, its
// repository:tag and how it is made.
func Images(t testing.TB, list string) map[string]Spec {
	t.Helper()
	data, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	images := map[string]Spec{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 5 {
			t.Fatalf("%s: want 5 fields: %q", list, sc.Text())
		}
		for i := range f {
			if f[i] == "-" {
				f[i] = ""
			}
		}
		images[f[0]] = Spec{Package: f[1], Version: f[2], Release: f[3], SubstitutesFor: f[4]}
	}
	return images
}

// PushAll pushes every image of testdata/templates/images.txt to the
// registry at host (see imagetest.Registry) under /tmpl and returns the
// prefix that templates' $REGISTRY stands for: host/tmpl.
func PushAll(t testing.TB, testdata, host string) string {
	t.Helper()
	dir := filepath.Join(testdata, "templates")
	prefix := host + "/tmpl"
	for ref, spec := range Images(t, filepath.Join(dir, "images.txt")) {
		Push(t, prefix+"/"+ref, filepath.Join(dir, "bundle"), spec)
	}
	return prefix
}

// Templates lists the templates in dir (testdata/templates): its .yaml
// and .json files that are not goldens.
func Templates(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		ext := path.Ext(name)
		if e.IsDir() || (ext != ".yaml" && ext != ".json") || strings.Contains(name, ".golden.") {
			continue
		}
		out = append(out, filepath.Join(dir, name))
	}
	return out
}

// Expand copies the directory tree dir (testdata/templates) to dst with
// every "$REGISTRY" in its templates and goldens replaced by prefix (see
// PushAll), so that commands can render them as they are.
func Expand(dir, prefix, dst string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, bytes.ReplaceAll(data, []byte("$REGISTRY"), []byte(prefix)), 0o644)
	})
}
