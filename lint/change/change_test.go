package change

import (
	"context"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/lint/linttest"
	"github.com/fbcat/opm/model"
)

func loadModel(t *testing.T, yaml string) *model.Catalog {
	t.Helper()
	cfg, err := declcfg.LoadBytes(context.Background(), "catalog.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	m, problems := model.New(cfg, model.Options{})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	return m
}

func TestCompareCatalogs(t *testing.T) {
	before, after := loadModel(t, linttest.Chain3), loadModel(t, linttest.ChangedChain)
	if got := Packages(before, before); got != nil {
		t.Fatalf("no change, got %+v", got)
	}
	got := Packages(before, after)
	if len(got) != 1 {
		t.Fatalf("got %+v", got)
	}
	p := got[0]
	if p.Package != "etcd" || p.New || p.Gone || p.Deprecated ||
		strings.Join(p.Added, ",") != "etcdoperator.v0.9.5" || strings.Join(p.Removed, ",") != "etcdoperator.v0.9.0" ||
		strings.Join(p.DeprecatedBundles, ",") != "etcdoperator.v0.9.2" {
		t.Fatalf("package change %+v", p)
	}
	if len(p.Channels) != 2 || p.Channels[0].Channel != "alpha" || p.Channels[1].Channel != "beta" {
		t.Fatalf("channels %+v", p.Channels)
	}
	alpha, beta := p.Channels[0], p.Channels[1]
	if alpha.HeadBefore != "etcdoperator.v0.9.4" || alpha.HeadAfter != "etcdoperator.v0.9.5" || len(alpha.Before) != 3 || len(alpha.After) != 3 {
		t.Fatalf("alpha %+v", alpha)
	}
	if alpha.After[0].Name != "etcdoperator.v0.9.5" || alpha.After[0].Version != "0.9.5" || alpha.After[0].SkipRange == "" || !alpha.After[2].Deprecated {
		t.Fatalf("alpha entries, newest first: %+v", alpha.After)
	}
	if beta.Before != nil || beta.HeadBefore != "" || beta.HeadAfter != "etcdoperator.v0.9.5" {
		t.Fatalf("beta %+v", beta)
	}
	// The other way round: the channel and the bundle are gone.
	back := Packages(after, before)[0]
	if strings.Join(back.Removed, ",") != "etcdoperator.v0.9.5" || back.Channels[1].After != nil || back.DeprecatedBundles != nil {
		t.Fatalf("reversed %+v", back)
	}
	// A new catalog: every package is new.
	if got := Packages(nil, after); len(got) != 1 || !got[0].New || len(got[0].Added) != 3 {
		t.Fatalf("new catalog %+v", got)
	}
}
