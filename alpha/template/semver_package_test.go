package template

import (
	"reflect"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// TestDescribePackageAsUpstream holds the package's description and icon
// to what opm v1.73's semver template wrote for bundle images whose CSV's
// spec is each of these (rendered side by side, with and without the
// csv-metadata migration): each member read on its own, every icon must
// read for the first to be taken, a missing base64data is null, and the
// members' own names are matched exactly (their fields ignoring case).
func TestDescribePackageAsUpstream(t *testing.T) {
	png := &declcfg.Icon{Data: []byte("icon"), MediaType: "image/png"}
	for _, tc := range []struct {
		name, spec string
		desc       string
		icon       *declcfg.Icon
	}{
		{"description and icon", `{"description":"d","icon":[{"base64data":"aWNvbg==","mediatype":"image/png"}]}`, "d", png},
		{"a second icon that does not read", `{"description":"d","icon":[{"base64data":"aWNvbg==","mediatype":"image/png"},{"base64data":"!!!"}]}`, "d", nil},
		{"a first icon that does not read", `{"description":"d","icon":[{"base64data":"!!!","mediatype":"image/png"}]}`, "d", nil},
		{"no base64data", `{"description":"d","icon":[{"mediatype":"image/svg+xml"}]}`, "d", &declcfg.Icon{MediaType: "image/svg+xml"}},
		{"null base64data", `{"description":"d","icon":[{"base64data":null,"mediatype":"image/png"}]}`, "d", &declcfg.Icon{MediaType: "image/png"}},
		{"a description that is a number", `{"description":5,"icon":[{"base64data":"aWNvbg==","mediatype":"image/png"}]}`, "", png},
		{"no description", `{"icon":[{"base64data":"aWNvbg==","mediatype":"image/png"}]}`, "", png},
		{"an empty description", `{"description":"","icon":[{"base64data":"aWNvbg==","mediatype":"image/png"}]}`, "", png},
		{"no icons", `{"description":"d","icon":[]}`, "d", nil},
		{"base64data over lines", `{"description":"d","icon":[{"base64data":"aWNv\nbg==","mediatype":"image/png"}]}`, "d", png},
		{"unpadded base64data", `{"description":"d","icon":[{"base64data":"aWNvbg","mediatype":"image/png"}]}`, "d", nil},
		{"no mediatype", `{"description":"d","icon":[{"base64data":"aWNvbg=="}]}`, "d", &declcfg.Icon{Data: []byte("icon")}},
		{"mediaType", `{"description":"d","icon":[{"base64data":"aWNvbg==","mediaType":"image/png"}]}`, "d", png},
		{"an icon that is a string", `{"description":"d","icon":["x"]}`, "d", nil},
		{"icon an object", `{"description":"d","icon":{"base64data":"aWNvbg==","mediatype":"image/png"}}`, "d", nil},
		{"Description", `{"Description":"d"}`, "", nil},
		{"other members of other types", `{"keywords":"k","description":"d","icon":[{"base64data":"aWNvbg==","mediatype":"image/png"}]}`, "d", png},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p declcfg.Package
			describePackage(&p, &Bundle{CSV: []byte(`{"kind":"ClusterServiceVersion","spec":` + tc.spec + `}`)})
			if p.Description != tc.desc || !reflect.DeepEqual(p.Icon, tc.icon) {
				t.Errorf("description %q, icon %+v; want %q, %+v", p.Description, p.Icon, tc.desc, tc.icon)
			}
		})
	}
}
