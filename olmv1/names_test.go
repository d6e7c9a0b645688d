package olmv1

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/registryv1"
)

// The hashes operator-controller's own tests expect of DeepHashObject.
func TestDeepHash(t *testing.T) {
	for _, tc := range []struct {
		obj  any
		want string
	}{
		{"a", "1lu1qv1451mq7gv9upu1cx8ffffi07rel5xvbvvc44dh"},
		{"b", "1ija85ah4gd0beltpfhszipkxfyqqxhp94tf2mjfgq61"},
		{nil, "2im0kl1kwvzn46sr4cdtkvmdzrlurvj51xdzhwdht8l0"},
		{struct{}{}, "16jfjhihxbzhfhs1k5mimq740kvioi98pfbea9q6qtf9"},
		{struct {
			Str string
			Num int
			Obj any
			Arr []int
			B   bool
			N   any
		}{"foobar", 22, struct{ Foo string }{"bar"}, []int{0, 1}, true, nil}, "gta1bt5sybll5qjqxdiekmjm7py93glrinmnrfb31fj"},
	} {
		if got := deepHash(tc.obj); got != tc.want {
			t.Errorf("deepHash(%#v) = %s, want %s", tc.obj, got, tc.want)
		}
	}
}

func TestNameWithSuffix(t *testing.T) {
	if got := nameWithSuffix("a", "b"); got != "a-b" {
		t.Errorf("got %q", got)
	}
	long := strings.Repeat("x", 70)
	if got := nameWithSuffix(long, "suffix"); len(got) != 63 || !strings.HasSuffix(got, "-suffix") {
		t.Errorf("got %q (%d)", got, len(got))
	}
	// operator-controller's off-by-one: exactly 63 characters of base and
	// suffix make a 64-character name.
	if got := nameWithSuffix(strings.Repeat("x", 57), "suffix"); len(got) != 64 {
		t.Errorf("got %q (%d)", got, len(got))
	}
	c := certNamesFor("argocd-operator.controller-manager")
	if c.service != "argocd-operator-controller-manager-service" || c.cert != "argocd-operator-controller-manager-service-cert" ||
		c.issuer() != "argocd-operator-controller-manager-service-ce-selfsigned-issuer" {
		t.Errorf("cert names %+v, issuer %s", c, c.issuer())
	}
}

// The permission hash covers the JSON of v1alpha1.StrategyDeploymentPermissions.
func TestPermissionHashEncoding(t *testing.T) {
	p := registryv1.StrategyDeploymentPermissions{
		ServiceAccountName: "sa",
		Rules:              []registryv1.PolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"}}},
	}
	a := deepHash(p)
	b := deepHash(struct {
		ServiceAccountName string `json:"serviceAccountName"`
		Rules              []struct {
			Verbs     []string `json:"verbs"`
			APIGroups []string `json:"apiGroups,omitempty"`
			Resources []string `json:"resources,omitempty"`
		} `json:"rules"`
	}{"sa", []struct {
		Verbs     []string `json:"verbs"`
		APIGroups []string `json:"apiGroups,omitempty"`
		Resources []string `json:"resources,omitempty"`
	}{{[]string{"get"}, []string{""}, []string{"pods"}}}})
	if a != b {
		t.Errorf("hash %s, want %s", a, b)
	}
}
