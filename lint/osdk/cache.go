package osdk

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"io/fs"
	"sync"

	apivalidation "github.com/operator-framework/api/pkg/validation"
	apierrors "github.com/operator-framework/api/pkg/validation/errors"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"

	"github.com/fbcat/opm/encoding/value"
)

// Cache keeps, by the sum of a file's content, what Validate works out
// of a manifest on its own: the CRD validator's verdict on a CRD and the
// compressed size of a file. Bundles of one package often share CRDs,
// and those are most of a bundle's bytes. A Cache is safe for bundles
// validated at once; its zero value is ready to use, and a nil *Cache
// keeps nothing.
type Cache struct {
	mu    sync.Mutex
	crds  map[[sha256.Size]byte]*crdVerdict
	sizes map[[sha256.Size]byte]int64
	// writers are gzip writers to reuse.
	writers sync.Pool
}

// crdVerdict is what the loader and the CRD validator make of a CRD.
type crdVerdict struct {
	// err is why the loader cannot decode the CRD into its type.
	err error
	// v1 or v1beta1 is the CRD as the bundle validator reads it (its
	// name, group, kind and versions); both nil for another version.
	v1      *apiextensionsv1.CustomResourceDefinition
	v1beta1 *apiextensionsv1beta1.CustomResourceDefinition
	// problems are the CRD validator's.
	problems []apierrors.Error
}

// crd is the verdict on the CRD manifest of that tree and content sum.
func (c *Cache) crd(tree *value.Value, sum [sha256.Size]byte) *crdVerdict {
	if c == nil {
		return judgeCRD(tree)
	}
	c.mu.Lock()
	v := c.crds[sum]
	c.mu.Unlock()
	if v != nil {
		return v
	}
	v = judgeCRD(tree)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.crds == nil {
		c.crds = map[[sha256.Size]byte]*crdVerdict{}
	}
	c.crds[sum] = v
	return v
}

// judgeCRD decodes a CRD into its type, as the loader does, and runs the
// CRD validator on it, as operator-sdk does. The bundle validator runs
// before the CRD validator, which defaults the CRD it is given: it reads
// a copy of the fields it needs, taken before.
func judgeCRD(tree *value.Value) *crdVerdict {
	js := value.AppendKubernetesJSON(nil, tree)
	var v crdVerdict
	var results []apierrors.ManifestResult
	switch tree.StringAt("apiVersion") {
	case apiextensionsv1.SchemeGroupVersion.String():
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if v.err = json.Unmarshal(js, crd); v.err != nil {
			return &v
		}
		v.v1 = &apiextensionsv1.CustomResourceDefinition{ObjectMeta: crd.ObjectMeta, Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: crd.Spec.Group, Names: crd.Spec.Names, Versions: namesOnly(crd.Spec.Versions)}}
		results = apivalidation.CustomResourceDefinitionValidator.Validate(crd)
	case apiextensionsv1beta1.SchemeGroupVersion.String():
		crd := &apiextensionsv1beta1.CustomResourceDefinition{}
		if v.err = json.Unmarshal(js, crd); v.err != nil {
			return &v
		}
		v.v1beta1 = &apiextensionsv1beta1.CustomResourceDefinition{ObjectMeta: crd.ObjectMeta, Spec: apiextensionsv1beta1.CustomResourceDefinitionSpec{
			Group: crd.Spec.Group, Names: crd.Spec.Names, Version: crd.Spec.Version, Versions: namesOnlyBeta(crd.Spec.Versions)}}
		results = apivalidation.CustomResourceDefinitionValidator.Validate(crd)
	}
	for _, r := range results {
		v.problems = append(append(v.problems, r.Warnings...), r.Errors...)
	}
	return &v
}

// namesOnly keeps the names of a v1 CRD's versions.
func namesOnly(vs []apiextensionsv1.CustomResourceDefinitionVersion) []apiextensionsv1.CustomResourceDefinitionVersion {
	out := make([]apiextensionsv1.CustomResourceDefinitionVersion, len(vs))
	for i := range vs {
		out[i].Name = vs[i].Name
	}
	return out
}

// namesOnlyBeta keeps the names of a v1beta1 CRD's versions.
func namesOnlyBeta(vs []apiextensionsv1beta1.CustomResourceDefinitionVersion) []apiextensionsv1beta1.CustomResourceDefinitionVersion {
	out := make([]apiextensionsv1beta1.CustomResourceDefinitionVersion, len(vs))
	for i := range vs {
		out[i].Name = vs[i].Name
	}
	return out
}

// compressedSize is the size of the file name of fsys, whose content
// sums to sum, compressed as the loader measures it: gzip, then base64.
func (c *Cache) compressedSize(fsys fs.FS, name string, sum [sha256.Size]byte) (int64, error) {
	if c != nil {
		c.mu.Lock()
		n, ok := c.sizes[sum]
		c.mu.Unlock()
		if ok {
			return n, nil
		}
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return 0, err
	}
	var zw *gzip.Writer
	if c != nil {
		if zw, _ = c.writers.Get().(*gzip.Writer); zw == nil {
			zw = gzip.NewWriter(io.Discard)
		}
		defer c.writers.Put(zw)
	}
	n := gzipBase64Size(data, zw)
	if c != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.sizes == nil {
			c.sizes = map[[sha256.Size]byte]int64{}
		}
		c.sizes[sum] = n
	}
	return n, nil
}

// gzipBase64Size is the length of what operator-framework/api's
// encoding.GzipBase64Encode makes of data (a gzip stream at the default
// level with an empty header, in padded base64), without the bytes. zw
// is a gzip writer at the default level to reuse (each holds a megabyte
// of compressor state), nil for a new one.
func gzipBase64Size(data []byte, zw *gzip.Writer) int64 {
	if zw == nil {
		zw = gzip.NewWriter(io.Discard)
	}
	var n counter
	zw.Reset(&n)
	_, _ = zw.Write(data) // a counter never fails
	_ = zw.Close()
	return int64(base64.StdEncoding.EncodedLen(int(n)))
}

// counter counts the bytes written to it.
type counter int

func (c *counter) Write(p []byte) (int, error) {
	*c += counter(len(p))
	return len(p), nil
}
