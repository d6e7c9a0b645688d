package serve

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

func b64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// The inputs are what the loader hands over for small crafted catalogs
// (property values normalized: keys sorted, numbers as float64 prints
// them). Every want was checked against upstream opm v1.73's answers
// (csvJson of GetBundleForChannel from `opm serve` on the same catalogs).
var csvFromMetadataTests = []struct {
	name string
	in   csvInput
	want string
}{
	{
		name: "full", // every csv.metadata field, with package icon and related images; the metadata description wins over the package's
		in: csvInput{
			Name:               "full.v1.0.0",
			Version:            "1.0.0",
			Metadata:           json.RawMessage(`{"annotations":{"a":"1","b":"2","capabilities":"Basic Install"},"apiServiceDefinitions":{"owned":[{"actionDescriptors":[{"description":"desc act","displayName":"D act","path":"act","value":{"a":[1,2.5,"x"],"z":1},"x-descriptors":["urn:alm:descriptor:a","urn:b"]}],"containerPort":8443,"deploymentName":"dep","description":"as desc","displayName":"AS","group":"g.io","kind":"K","name":"as1","resources":[{"kind":"Deployment","name":"r","version":"v1"}],"specDescriptors":[{"description":"desc spec.a","displayName":"D spec.a","path":"spec.a","value":{"a":[1,2.5,"x"],"z":1},"x-descriptors":["urn:alm:descriptor:a","urn:b"]}],"statusDescriptors":[{"description":"desc status.a","displayName":"D status.a","path":"status.a","value":{"a":[1,2.5,"x"],"z":1},"x-descriptors":["urn:alm:descriptor:a","urn:b"]}],"version":"v1"}],"required":[{"group":"g2.io","kind":"K2","name":"as2","version":"v2"}]},"crdDescriptions":{"owned":[{"actionDescriptors":[{"description":"desc ac","displayName":"D ac","path":"ac","value":{"a":[1,2.5,"x"],"z":1},"x-descriptors":["urn:alm:descriptor:a","urn:b"]}],"description":"foo desc","displayName":"Foo","kind":"Foo","name":"foos.g.io","resources":[{"kind":"Service","name":"","version":"v1"}],"specDescriptors":[{"description":"desc sp","displayName":"D sp","path":"sp","value":{"a":[1,2.5,"x"],"z":1},"x-descriptors":["urn:alm:descriptor:a","urn:b"]}],"statusDescriptors":[{"description":"desc s","displayName":"D s","path":"s","value":{"a":[1,2.5,"x"],"z":1},"x-descriptors":["urn:alm:descriptor:a","urn:b"]}],"version":"v1"}],"required":[{"kind":"Bar","name":"bars.g.io","version":"v1"}]},"description":"meta desc","displayName":"Full Op","installModes":[{"supported":true,"type":"OwnNamespace"},{"supported":false,"type":"AllNamespaces"}],"keywords":["k1","k2"],"labels":{"l1":"v1","l2":"v2"},"links":[{"name":"home","url":"https://x"},{"url":"https://y"}],"maintainers":[{"email":"m@x","name":"m"},{"email":"only@x"}],"maturity":"alpha","minKubeVersion":"1.20.0","nativeAPIs":[{"group":"","kind":"Pod","version":"v1"}],"provider":{"name":"ACME","url":"https://acme"}}`),
			PackageDescription: "pkg desc",
			Icon:               &declcfg.Icon{Data: b64("iVBORw0K"), MediaType: "image/png"},
			RelatedImages:      []declcfg.RelatedImage{{Name: "op", Image: "quay.io/op:1"}, {Name: "", Image: "quay.io/x:2"}},
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"full.v1.0.0","labels":{"l1":"v1","l2":"v2"},"annotations":{"a":"1","b":"2","capabilities":"Basic Install"}},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","maturity":"alpha","customresourcedefinitions":{"owned":[{"name":"foos.g.io","version":"v1","kind":"Foo","displayName":"Foo","description":"foo desc","resources":[{"name":"","kind":"Service","version":"v1"}],"statusDescriptors":[{"path":"s","displayName":"D s","description":"desc s","x-descriptors":["urn:alm:descriptor:a","urn:b"],"value":{"a":[1,2.5,"x"],"z":1}}],"specDescriptors":[{"path":"sp","displayName":"D sp","description":"desc sp","x-descriptors":["urn:alm:descriptor:a","urn:b"],"value":{"a":[1,2.5,"x"],"z":1}}],"actionDescriptors":[{"path":"ac","displayName":"D ac","description":"desc ac","x-descriptors":["urn:alm:descriptor:a","urn:b"],"value":{"a":[1,2.5,"x"],"z":1}}]}],"required":[{"name":"bars.g.io","version":"v1","kind":"Bar"}]},"apiservicedefinitions":{"owned":[{"name":"as1","group":"g.io","version":"v1","kind":"K","deploymentName":"dep","containerPort":8443,"displayName":"AS","description":"as desc","resources":[{"name":"r","kind":"Deployment","version":"v1"}],"statusDescriptors":[{"path":"status.a","displayName":"D status.a","description":"desc status.a","x-descriptors":["urn:alm:descriptor:a","urn:b"],"value":{"a":[1,2.5,"x"],"z":1}}],"specDescriptors":[{"path":"spec.a","displayName":"D spec.a","description":"desc spec.a","x-descriptors":["urn:alm:descriptor:a","urn:b"],"value":{"a":[1,2.5,"x"],"z":1}}],"actionDescriptors":[{"path":"act","displayName":"D act","description":"desc act","x-descriptors":["urn:alm:descriptor:a","urn:b"],"value":{"a":[1,2.5,"x"],"z":1}}]}],"required":[{"name":"as2","group":"g2.io","version":"v2","kind":"K2"}]},"nativeAPIs":[{"group":"","version":"v1","kind":"Pod"}],"minKubeVersion":"1.20.0","displayName":"Full Op","description":"meta desc","keywords":["k1","k2"],"maintainers":[{"name":"m","email":"m@x"},{"email":"only@x"}],"provider":{"name":"ACME","url":"https://acme"},"links":[{"name":"home","url":"https://x"},{"url":"https://y"}],"icon":[{"base64data":"iVBORw0K","mediatype":"image/png"}],"installModes":[{"type":"OwnNamespace","supported":true},{"type":"AllNamespaces","supported":false}],"cleanup":{"enabled":false},"relatedImages":[{"name":"op","image":"quay.io/op:1"},{"name":"","image":"quay.io/x:2"}]},"status":{"cleanup":{}}}`,
	},
	{
		name: "empty", // empty metadata: the fields upstream always writes
		in: csvInput{
			Name:     "empty.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"empty.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "emptyvariants", // every field present but empty, and empty relatedImages: all omitted like absent ones
		in: csvInput{
			Name:          "emptyvariants.v1.0.0",
			Version:       "1.0.0",
			Metadata:      json.RawMessage(`{"annotations":{},"apiServiceDefinitions":{"owned":[],"required":[]},"crdDescriptions":{"owned":[],"required":[]},"description":"","displayName":"","installModes":[],"keywords":[],"labels":{},"links":[],"maintainers":[],"maturity":"","minKubeVersion":"","nativeAPIs":[],"provider":{}}`),
			RelatedImages: []declcfg.RelatedImage{},
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"emptyvariants.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "nullvariants", // every field null
		in: csvInput{
			Name:     "nullvariants.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{"annotations":null,"apiServiceDefinitions":null,"crdDescriptions":null,"description":null,"displayName":null,"installModes":null,"keywords":null,"labels":null,"links":null,"maintainers":null,"maturity":null,"minKubeVersion":null,"nativeAPIs":null,"provider":null}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"nullvariants.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "metanull", // a null property value
		in: csvInput{
			Name:     "metanull.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`null`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"metanull.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "pkgfallback", // no metadata description: the package description is used
		in: csvInput{
			Name:               "pkgfallback.v1.0.0",
			Version:            "1.0.0",
			Metadata:           json.RawMessage(`{"displayName":"X"}`),
			PackageDescription: "the pkg description",
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"pkgfallback.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"X","description":"the pkg description","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "pkgdescoverride", // metadata description over package description
		in: csvInput{
			Name:               "pkgdescoverride.v1.0.0",
			Version:            "1.0.0",
			Metadata:           json.RawMessage(`{"description":"meta wins"}`),
			PackageDescription: "the pkg description",
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"pkgdescoverride.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","description":"meta wins","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "html", // <, > and & are escaped everywhere, also inside descriptor values; U+2028/U+2029 too
		in: csvInput{
			Name:               "html.v1.0.0",
			Version:            "1.0.0",
			Metadata:           json.RawMessage(`{"annotations":{"k<":"v>&"},"crdDescriptions":{"owned":[{"kind":"K","name":"n","specDescriptors":[{"path":"p","value":{"h":"<&>","u":"\u2028"}}],"version":"v"}]},"description":"<p>x & y</p>\u2028\u2029 é é \t\n\"q\"\\","displayName":"a<b>&c"}`),
			PackageDescription: "<pkg>",
			RelatedImages:      []declcfg.RelatedImage{{Name: "a&b<>", Image: "quay.io/q:1"}},
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"html.v1.0.0","annotations":{"k\u003c":"v\u003e\u0026"}},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{"owned":[{"name":"n","version":"v","kind":"K","specDescriptors":[{"path":"p","value":{"h":"\u003c\u0026\u003e","u":"\u2028"}}]}]},"apiservicedefinitions":{},"displayName":"a\u003cb\u003e\u0026c","description":"\u003cp\u003ex \u0026 y\u003c/p\u003e\u2028\u2029 é é \t\n\"q\"\\","provider":{},"cleanup":{"enabled":false},"relatedImages":[{"name":"a\u0026b\u003c\u003e","image":"quay.io/q:1"}]},"status":{"cleanup":{}}}`,
	},
	{
		name: "unknown", // fields the metadata does not define (icon, version, relatedImages, ...) are ignored
		in: csvInput{
			Name:     "unknown.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{"displayName":"U","foo":"bar","icon":[{"base64data":"AAAA","mediatype":"image/png"}],"relatedImages":[{"image":"i","name":"n"}],"replaces":"x","spec":{"x":1},"version":"9.9.9"}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"unknown.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"U","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "prerel", // pre-release and build metadata in the version
		in: csvInput{
			Name:     "prerel.v1.0.0-rc.1+build.5",
			Version:  "1.0.0-rc.1+build.5",
			Metadata: json.RawMessage(`{}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"prerel.v1.0.0-rc.1+build.5"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0-rc.1+build.5","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "buildonly", // build metadata only
		in: csvInput{
			Name:     "buildonly.v1.0.0+20200101",
			Version:  "1.0.0+20200101",
			Metadata: json.RawMessage(`{}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"buildonly.v1.0.0+20200101"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0+20200101","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "buildzeros", // build metadata with leading zeros is kept
		in: csvInput{
			Name:     "buildzeros.v1.0.0+build.01",
			Version:  "1.0.0+build.01",
			Metadata: json.RawMessage(`{}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"buildzeros.v1.0.0+build.01"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0+build.01","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "big", // large version numbers
		in: csvInput{
			Name:     "big.v18446744073709551615.0.0-x.7.z-9+a.b",
			Version:  "18446744073709551615.0.0-x.7.z-9+a.b",
			Metadata: json.RawMessage(`{}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"big.v18446744073709551615.0.0-x.7.z-9+a.b"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"18446744073709551615.0.0-x.7.z-9+a.b","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "zero", // version 0.0.0 is written, not omitted
		in: csvInput{
			Name:     "zero.v0.0.0",
			Version:  "0.0.0",
			Metadata: json.RawMessage(`{}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"zero.v0.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"0.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "release", // a release in the olm.package property changes neither spec.version nor adds a field; the bundle name is used as is
		in: csvInput{
			Name:     "release-v1.0.0-2",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{"displayName":"R"}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"release-v1.0.0-2"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"R","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "releasedots", // release with a pre-release version
		in: csvInput{
			Name:     "releasedots-v1.2.3-alpha-1.rc-1",
			Version:  "1.2.3-alpha",
			Metadata: json.RawMessage(`{}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"releasedots-v1.2.3-alpha-1.rc-1"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.2.3-alpha","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "oddname", // metadata.name is the bundle name, whatever it looks like
		in: csvInput{
			Name:     "totally-different",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"totally-different"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "iconnomt", // package icon without a media type
		in: csvInput{
			Name:     "iconnomt.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{}`),
			Icon:     &declcfg.Icon{Data: b64("AAAA"), MediaType: ""},
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"iconnomt.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"icon":[{"base64data":"AAAA","mediatype":""}],"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "iconnodata", // package icon without data
		in: csvInput{
			Name:     "iconnodata.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{}`),
			Icon:     &declcfg.Icon{Data: nil, MediaType: "image/svg+xml"},
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"iconnodata.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","provider":{},"icon":[{"base64data":"","mediatype":"image/svg+xml"}],"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "iconhtml", // package icon and description with HTML characters
		in: csvInput{
			Name:               "iconhtml.v1.0.0",
			Version:            "1.0.0",
			Metadata:           json.RawMessage(`{"provider":{"name":"<A&B>"}}`),
			PackageDescription: "pkg & desc",
			Icon:               &declcfg.Icon{Data: b64("PHN2Zz4="), MediaType: "image/svg+xml<&>"},
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"iconhtml.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"","description":"pkg \u0026 desc","provider":{"name":"\u003cA\u0026B\u003e"},"icon":[{"base64data":"PHN2Zz4=","mediatype":"image/svg+xml\u003c\u0026\u003e"}],"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "valuenull", // descriptor values: null is written (value:null), empty strings, lists and objects too; numbers as normalized
		in: csvInput{
			Name:     "valuenull.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{"crdDescriptions":{"owned":[{"kind":"K","name":"n","specDescriptors":[{"path":"p","value":null},{"path":"q","value":""},{"path":"r","value":0},{"path":"s","value":[]},{"path":"t","value":{}},{"path":"u","value":false},{"path":"w","value":1e+21},{"path":"x","value":1}],"version":"v"}]}}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"valuenull.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{"owned":[{"name":"n","version":"v","kind":"K","specDescriptors":[{"path":"p","value":null},{"path":"q","value":""},{"path":"r","value":0},{"path":"s","value":[]},{"path":"t","value":{}},{"path":"u","value":false},{"path":"w","value":1e+21},{"path":"x","value":1}]}]},"apiservicedefinitions":{},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "casekeys", // field names match case-insensitively, the later of two keys for one field wins
		in: csvInput{
			Name:     "casekeys.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{"DisplayName":"upper","KEYWORDS":["K"],"Provider":{"NAME":"p"},"displayName":"lower"}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"casekeys.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"lower","keywords":["K"],"provider":{"name":"p"},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "floatport", // containerPort written as a float in the catalog
		in: csvInput{
			Name:     "floatport.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{"apiServiceDefinitions":{"owned":[{"containerPort":8443,"group":"g","kind":"K","name":"a","version":"v"}]}}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"floatport.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{"owned":[{"name":"a","group":"g","version":"v","kind":"K","containerPort":8443}]},"displayName":"","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "bigmeta", // odd but valid values: unknown install mode types, empty list elements
		in: csvInput{
			Name:     "bigmeta.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{"annotations":{"containerImage":"x","olm.skipRange":"<1.0.0"},"installModes":[{"supported":true,"type":"Whatever"},{"supported":false,"type":""}],"keywords":[""],"links":[{}],"maintainers":[{}],"nativeAPIs":[{}]}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"bigmeta.v1.0.0","annotations":{"containerImage":"x","olm.skipRange":"\u003c1.0.0"}},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"nativeAPIs":[{"group":"","version":"","kind":""}],"displayName":"","keywords":[""],"maintainers":[{}],"provider":{},"links":[{}],"installModes":[{"type":"Whatever","supported":true},{"type":"","supported":false}],"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "mixed", // the bundle also has non-CSV objects (they do not change the CSV)
		in: csvInput{
			Name:     "mixed.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{"displayName":"M"}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"mixed.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"M","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
	{
		name: "noimage", // a bundle without image
		in: csvInput{
			Name:     "noimage.v1.0.0",
			Version:  "1.0.0",
			Metadata: json.RawMessage(`{"displayName":"NI"}`),
		},
		want: `{"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1","metadata":{"name":"noimage.v1.0.0"},"spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},"apiservicedefinitions":{},"displayName":"NI","provider":{},"cleanup":{"enabled":false}},"status":{"cleanup":{}}}`,
	},
}

func TestCSVFromMetadata(t *testing.T) {
	for _, tt := range csvFromMetadataTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := csvFromMetadata(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestCSVFromMetadataErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      csvInput
		wantErr string
	}{
		{
			name:    "wrong type",
			in:      csvInput{Name: "a.v1.0.0", Version: "1.0.0", Metadata: json.RawMessage(`{"displayName":5}`)},
			wantErr: "cannot unmarshal number into Go struct field Metadata.displayName of type string",
		},
		{
			name:    "not an object",
			in:      csvInput{Name: "a.v1.0.0", Version: "1.0.0", Metadata: json.RawMessage(`"hello"`)},
			wantErr: "cannot unmarshal string into Go value of type registryv1.Metadata",
		},
		{
			name:    "containerPort not an int32",
			in:      csvInput{Name: "a.v1.0.0", Version: "1.0.0", Metadata: json.RawMessage(`{"apiServiceDefinitions":{"owned":[{"containerPort":3000000000}]}}`)},
			wantErr: "cannot unmarshal number 3000000000 into Go struct field APIServiceDescription.apiServiceDefinitions.owned.containerPort of type int32",
		},
		{
			name:    "bad version",
			in:      csvInput{Name: "a.v1.0", Version: "1.0", Metadata: json.RawMessage(`{}`)},
			wantErr: `parse version "1.0"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := csvFromMetadata(tt.in)
			if err == nil {
				t.Fatalf("no error, got %s", got)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not contain %q", err, tt.wantErr)
			}
		})
	}
}
