package suites

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/linttest"
	"github.com/fbcat/opm/registryv1"
)

// TestMain runs the test binary as a helper when $SUITES_TEST_HELPER
// says how (see helperModes): the exec tests start it as opm-osdk.
func TestMain(m *testing.M) {
	if mode := os.Getenv("SUITES_TEST_HELPER"); mode != "" {
		os.Exit(helperModes[mode]())
	}
	os.Exit(m.Run())
}

// helperModes are the helpers the test binary can be: one that serves
// with describing, one that dies on its first request, one that says
// hello and then nothing.
var helperModes = map[string]func() int{
	"serve": func() int {
		if err := Serve(os.Stdin, os.Stdout, describing); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	},
	"crash": func() int {
		br := newHelloed(os.Stdin, os.Stdout)
		_, _ = br.ReadByte()
		fmt.Fprintln(os.Stderr, "boom: the helper fell over")
		return 3
	},
	"mute": func() int {
		newHelloed(os.Stdin, os.Stdout)
		select {}
	},
}

// newHelloed reads opm's hello and says the helper's, as a helper that
// then misbehaves.
func newHelloed(r io.Reader, w io.Writer) *bufio.Reader {
	br := bufio.NewReader(r)
	var h hello
	_ = readLine(br, &h)
	_ = writeLine(w, hello{Protocol: Protocol, From: fromHelper})
	return br
}

// describing is a validate function that says what it was given: the
// bundle's name, Kubernetes version and files (see describe).
func describing(b *Bundle) *Result {
	return &Result{Default: []Output{{Message: b.Dir + " " + b.KubernetesVersion + "\n" + describe(b.Files)}}}
}

// describe lists what registryv1 read of a bundle's entries, as the
// validators read it: each manifest's name, type, size, whether it is
// skipped, its object's kind, name and line and its content's sum; each
// metadata entry's name, type and sum; the annotations file.
func describe(f *registryv1.Files) string {
	var b strings.Builder
	for _, m := range f.Manifests {
		info, err := m.Entry.Info()
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", m.File, err)
			continue
		}
		fmt.Fprintf(&b, "%s dir=%v size=%d skipped=%v kind=%s name=%s line=%d sum=%x\n",
			m.File, m.Entry.IsDir(), info.Size(), m.Skipped(), m.Kind, m.Name, m.Line, m.Sum)
		if tree := m.Object(); tree != nil {
			fmt.Fprintf(&b, "  object at line %d: %s\n", tree.Line, tree.StringAt("metadata", "name"))
		}
	}
	for _, m := range f.Metadata {
		fmt.Fprintf(&b, "%s dir=%v sum=%x\n", m.File, m.Entry.IsDir(), m.Sum)
	}
	if f.Annotations != nil {
		fmt.Fprintf(&b, "annotations: %s\n", f.Annotations.File)
	}
	return b.String()
}

// oddBundle writes a bundle directory with what the loader stops on or
// measures apart: a hidden file, a subdirectory, a symbolic link (whose
// entry's size is the link's), an empty file, JSON and several
// documents, and a subdirectory of metadata/.
func oddBundle(t *testing.T) string {
	dir := t.TempDir()
	linttest.WriteFiles(t, dir, map[string]string{
		"manifests/a.clusterserviceversion.yaml": "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: a.v1.0.0\n",
		"manifests/crd.yaml":                     "# a comment\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: as.example.com\nspec:\n  versions:\n  - name: v1\n    served: true\n",
		"manifests/.hidden":                      "x",
		"manifests/empty.yaml":                   "",
		"manifests/object.json":                  `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}`,
		"manifests/two.yaml":                     "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: t\n",
		"manifests/sub/inner.yaml":               "kind: Nothing\n",
		"metadata/annotations.yaml":              "annotations:\n  operators.operatorframework.io.bundle.package.v1: a\n",
		"metadata/extra/x.yaml":                  "x: 1\n",
		"elsewhere/target.yaml":                  "apiVersion: v1\nkind: Service\nmetadata:\n  name: linked\n",
	})
	if err := os.Symlink(filepath.Join("..", "elsewhere", "target.yaml"), filepath.Join(dir, "manifests", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readDir reads a bundle directory as lint does.
func readDir(t testing.TB, dir string) *registryv1.Files {
	t.Helper()
	f, err := registryv1.ReadSkimmed(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	return f
}
