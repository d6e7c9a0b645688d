package osdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/operator-framework/api/pkg/manifests"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/osdk/suites"
	"github.com/fbcat/opm/registryv1"
)

// How operator-sdk loads a bundle directory (operator-sdk v1.36.1's
// bundle validate, getBundleDataFromDir): it reads metadata/'s
// annotations, takes the manifests directory they name
// (operators.operatorframework.io.bundle.manifests.v1, manifests/
// without one) and loads it with operator-framework/api's
// manifests.GetBundleFromDir. That loader decodes the first document of
// every file of that directory into an unstructured object and, for the
// CSV and the CRDs, into their types (a second CSV, or a CRD version
// other than apiextensions.k8s.io/v1 and v1beta1, stops it), and fails
// on a subdirectory, a hidden file or a file that is no object with a
// kind. It reads no annotations file there (it looks for one only among
// the manifests), so the bundle's channels are [""] and its package "".
// Its size is the manifests' bytes, and their size compressed the sum of
// each file's gzip in base64. When loading fails, operator-sdk exits
// without printing JSON.

// loaded is a bundle as the loader has it, with where each object is
// written.
type loaded struct {
	bundle *manifests.Bundle
	csv    *file
	crds   []*crdFile
	others []*file
}

// file is a manifest: its name in manifests/, its first document and
// the loader's unstructured object of it.
type file struct {
	name string
	tree *value.Value
	obj  *unstructured.Unstructured
}

// crdFile is a CRD's manifest and the CRD validator's verdict on it.
type crdFile struct {
	file
	verdict *crdVerdict
}

// load builds the bundle the loader reads from the directory, or says
// why the loader fails.
func load(b *suites.Bundle, c *Cache) (*loaded, error) {
	if err := manifestsNamed(b); err != nil {
		return nil, err
	}
	l := &loaded{bundle: &manifests.Bundle{Channels: []string{""}}}
	for _, m := range b.Files.Manifests {
		name := m.Entry.Name()
		p := filepath.Join(b.Dir, "manifests", name)
		switch {
		case m.Entry.IsDir():
			return nil, fmt.Errorf("bundle manifests dir contains directory: %s", p)
		case strings.HasPrefix(name, "."):
			return nil, fmt.Errorf("bundle manifests dir has hidden file: %s", p)
		case m.Kind == "" || m.Object() == nil:
			return nil, fmt.Errorf("unable to decode object: %s is not a Kubernetes object with a kind", p)
		}
		if err := l.add(name, m, c); err != nil {
			return nil, err
		}
	}
	if l.csv == nil {
		return nil, fmt.Errorf("unable to find a csv in bundle directory %s", filepath.Join(b.Dir, "manifests"))
	}
	l.bundle.Name = l.csv.obj.GetName()
	if err := l.measure(b, c); err != nil {
		return nil, err
	}
	return l, nil
}

// manifestsNamed checks that the annotations name manifests/ as the
// manifests directory, the only one lint reads.
func manifestsNamed(b *suites.Bundle) error {
	a, _, ok := b.Files.Annotations.Get(annotationManifests)
	if !ok || path.Clean(a) == "manifests" {
		return nil
	}
	return fmt.Errorf("%s names %q as the manifests directory: operator-sdk loads that directory, lint reads manifests/", annotationManifests, a)
}

// add adds the manifest name to the bundle, as the loader decodes it.
func (l *loaded) add(name string, m *registryv1.Manifest, c *Cache) error {
	tree := m.Object()
	f := &file{name: name, tree: tree}
	switch kind, apiVersion := tree.StringAt("kind"), tree.StringAt("apiVersion"); kind {
	case "ClusterServiceVersion":
		if l.csv != nil {
			return errors.New("invalid bundle: contains multiple CSVs")
		}
		js := value.AppendKubernetesJSON(nil, tree)
		if f.obj = decodeObject(js); f.obj == nil {
			return fmt.Errorf("unable to decode object: %s", name)
		}
		csv := &v1alpha1.ClusterServiceVersion{}
		if err := json.Unmarshal(js, csv); err != nil {
			return fmt.Errorf("unable to parse CSV %s: %s", name, err)
		}
		l.csv, l.bundle.CSV = f, csv
	case "CustomResourceDefinition":
		v := c.crd(tree, m.Sum)
		if v.err != nil {
			return fmt.Errorf("unable to parse CRD %s: %s", name, v.err)
		}
		if v.v1 == nil && v.v1beta1 == nil {
			return fmt.Errorf("unsupported CRD version %s for %s", apiVersion, name)
		}
		// The validators read no more of a CRD's object than its kind and
		// name: the CRD itself is in V1CRDs or V1beta1CRDs.
		f.obj = &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": tree.StringAt("metadata", "name")},
		}}
		l.crds = append(l.crds, &crdFile{file: *f, verdict: v})
		if v.v1 != nil {
			l.bundle.V1CRDs = append(l.bundle.V1CRDs, v.v1)
		} else {
			l.bundle.V1beta1CRDs = append(l.bundle.V1beta1CRDs, v.v1beta1)
		}
	default:
		if f.obj = decodeObject(value.AppendKubernetesJSON(nil, tree)); f.obj == nil {
			return fmt.Errorf("unable to decode object: %s", name)
		}
		l.others = append(l.others, f)
	}
	l.bundle.Objects = append(l.bundle.Objects, f.obj)
	return nil
}

// decodeObject decodes JSON into an unstructured object as the loader
// does; nil when it cannot.
func decodeObject(js []byte) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(js); err != nil {
		return nil
	}
	return u
}

// measure sets the bundle's size and compressed size: every file of
// manifests/ counts. The bundle validator only compares the compressed
// size with a limit and prints it past 85% of the limit; when an upper
// bound of it is below that, the bound stands in and nothing is
// compressed.
func (l *loaded) measure(b *suites.Bundle, c *Cache) error {
	var bound int64
	for _, m := range b.Files.Manifests {
		info, err := m.Entry.Info()
		if err != nil {
			return err
		}
		l.bundle.Size += info.Size()
		bound += compressedBound(info.Size())
	}
	if bound <= sizeWarning {
		l.bundle.CompressedSize = bound
		return nil
	}
	for _, m := range b.Files.Manifests {
		n, err := c.compressedSize(b.Files.FS, m.File, m.Sum)
		if err != nil {
			return fmt.Errorf("reading %s: %w", filepath.Join(b.Dir, filepath.FromSlash(m.File)), err)
		}
		l.bundle.CompressedSize += n
	}
	return nil
}

// sizeWarning is the largest compressed size the bundle validator says
// nothing of: 85% of its limit, 1 MiB.
const sizeWarning = (1 << 20) * 85 / 100

// compressedBound is an upper bound of the size of n bytes compressed as
// the loader compresses them (compress/gzip's default level, then
// base64). Each deflate block is written the smallest way of stored,
// fixed and dynamic Huffman codes, so it is never larger than with the
// fixed codes: at most 9 bits a literal and 31 bits a match (of 3 bytes
// or more), 10.4 bits a byte, and a few bits a block; gzip adds 18 bytes
// and base64 a third.
func compressedBound(n int64) int64 {
	gz := n*13/10 + n/512 + 32
	return (gz + 2) / 3 * 4
}

// at is the path of the file from the bundle directory and the line of
// its node n (nil: its first document).
func (f *file) at(n *value.Value) (string, int) {
	if n == nil || n.Line == 0 {
		n = f.tree
	}
	return path.Join("manifests", f.name), int(n.Line)
}
