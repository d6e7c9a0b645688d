package filter_test

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/filter"
)

func TestParseConfig(t *testing.T) {
	c, err := filter.ParseConfig("imageset.yaml", []byte(`kind: ImageSetConfiguration
apiVersion: mirror.openshift.io/v2alpha1
archiveSize: 4
mirror:
  platform:
    channels:
    - name: stable-4.18
  additionalImages:
  - name: registry.redhat.io/ubi9/ubi:latest
  operators:
  - catalog: registry.redhat.io/redhat/redhat-operator-index:v4.18
    targetCatalog: my/catalog
    packages:
    - name: aws-load-balancer-operator
      defaultChannel: stable-v1
      channels:
      - name: stable-v1
        minVersion: 1.1.0
        maxVersion: v1.2
    - name: 3scale-operator
      minVersion: '0.11.0'
  - catalog: oci:///home/user/catalog
    full: true
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Catalogs) != 2 || c.Catalogs[1].Catalog != "oci:///home/user/catalog" || !c.Catalogs[1].Full {
		t.Fatalf("catalogs: %+v", c.Catalogs)
	}
	p := c.Catalogs[0].Packages
	if len(p) != 2 || p[0].DefaultChannel != "stable-v1" || p[0].Channels[0].Range.Text != ">=1.1.0 <=v1.2" ||
		p[0].Channels[0].Range.Max.String() != "1.2.0" || p[1].Range.Min.String() != "0.11.0" || p[1].Line != 20 {
		t.Errorf("packages: %+v", p)
	}
	cat, err := c.ForRef("registry.redhat.io/redhat/redhat-operator-index:v4.18")
	if err != nil || cat != &c.Catalogs[0] {
		t.Errorf("ForRef: %v %v", cat, err)
	}
}

func TestParseConfigErrors(t *testing.T) {
	const head = "apiVersion: mirror.openshift.io/v2alpha1\nkind: ImageSetConfiguration\n"
	for _, tc := range []struct{ name, config, want string }{
		{"empty", "", "imageset.yaml: empty file; expected an ImageSetConfiguration"},
		{"not yaml", "mirror: [", "imageset.yaml: line 1: did not find expected node content"},
		{"wrong apiVersion", "apiVersion: mirror.openshift.io/v1alpha1\nkind: ImageSetConfiguration\nmirror: {operators: [{catalog: x}]}\n",
			`imageset.yaml:1: unsupported apiVersion "mirror.openshift.io/v1alpha1": expected mirror.openshift.io/v2alpha1 or mirror.openshift.io/v1alpha2`},
		{"wrong kind", "apiVersion: mirror.openshift.io/v2alpha1\nkind: DeleteImageSetConfiguration\nmirror: {operators: [{catalog: x}]}\n",
			`imageset.yaml:2: unknown kind "DeleteImageSetConfiguration": expected ImageSetConfiguration`},
		{"no kind", "apiVersion: mirror.openshift.io/v2alpha1\nmirror: {operators: [{catalog: x}]}\n", "imageset.yaml:1: missing kind"},
		{"no operators", head + "mirror:\n  platform: {}\n", "imageset.yaml:4: missing mirror.operators"},
		{"unknown top field", head + "mirrors: {}\n", `imageset.yaml:3: the configuration: unknown field "mirrors" (expected one of: apiVersion, archiveSize, kind, mirror, storageConfig)`},
		{"unknown package field", head + "mirror:\n  operators:\n  - catalog: x\n    packages:\n    - name: etcd\n      channel: stable\n",
			`imageset.yaml:8: package "etcd": unknown field "channel"`},
		{"unknown channel field", head + "mirror:\n  operators:\n  - catalog: x\n    packages:\n    - name: etcd\n      channels:\n      - name: stable\n        minversion: 1.0.0\n",
			`imageset.yaml:10: package "etcd", channel "stable": unknown field "minversion"`},
		{"bundles", head + "mirror:\n  operators:\n  - catalog: x\n    packages:\n    - name: etcd\n      bundles:\n      - name: etcd.v1\n",
			`imageset.yaml:8: package "etcd": bundles is not supported by opm alpha filter; select versions with minVersion and maxVersion`},
		{"bad version", head + "mirror:\n  operators:\n  - catalog: x\n    packages:\n    - name: etcd\n      minVersion: latest\n",
			`imageset.yaml:8: package "etcd": minVersion "latest" is not a semantic version`},
		{"min above max", head + "mirror:\n  operators:\n  - catalog: x\n    packages:\n    - name: etcd\n      minVersion: 2.0.0\n      maxVersion: 1.0.0\n",
			`imageset.yaml:8: package "etcd": minVersion 2.0.0 is greater than maxVersion 1.0.0`},
		{"full with a range", head + "mirror:\n  operators:\n  - catalog: x\n    full: true\n    packages:\n    - name: etcd\n      maxVersion: 1.0.0\n",
			`imageset.yaml:9: package "etcd": maxVersion cannot be combined with full: true`},
		{"package range and channels", head + "mirror:\n  operators:\n  - catalog: x\n    packages:\n    - name: etcd\n      minVersion: 1.0.0\n      channels:\n      - name: stable\n",
			`imageset.yaml:7: package "etcd": minVersion/maxVersion of the package cannot be combined with channels`},
		{"no package name", head + "mirror:\n  operators:\n  - catalog: x\n    packages:\n    - defaultChannel: stable\n", "imageset.yaml:7: mirror.operators[0].packages[0]: missing package name"},
		{"package twice", head + "mirror:\n  operators:\n  - catalog: x\n    packages:\n    - name: etcd\n    - name: etcd\n", `imageset.yaml:8: package "etcd" is listed twice (first at line 7)`},
		{"full not a bool", head + "mirror:\n  operators:\n  - catalog: x\n    full: yes please\n", `imageset.yaml:6: mirror.operators[0]: full must be true or false, not "yes please"`},
		{"no catalog", head + "mirror:\n  operators:\n  - full: true\n", "imageset.yaml:5: mirror.operators[0]: missing catalog"},
		{"duplicate key", head + "mirror:\n  operators:\n  - catalog: x\n    catalog: y\n", `imageset.yaml:6: mirror.operators[0]: duplicate field "catalog"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := filter.ParseConfig("imageset.yaml", []byte(tc.config))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant %q", err, tc.want)
			}
		})
	}
}

// Several problems are reported at once.
func TestParseConfigReportsEveryProblem(t *testing.T) {
	_, err := filter.ParseConfig("imageset.yaml", []byte("apiVersion: v1\nkind: ImageSetConfiguration\nmirror:\n  operators:\n  - catalog: x\n    pkgs: []\n"))
	if err == nil || !strings.Contains(err.Error(), "imageset.yaml:1: unsupported apiVersion") || !strings.Contains(err.Error(), `imageset.yaml:6: mirror.operators[0]: unknown field "pkgs"`) {
		t.Fatalf("error %v", err)
	}
}
