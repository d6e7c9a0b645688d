package list

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/fbcat/opm/render"
	"github.com/fbcat/opm/validate"
)

func TestWriteChannelsWithHeadError(t *testing.T) {
	var buf bytes.Buffer
	err := WriteChannels(&buf, []Channel{
		{Package: "foo", Name: "stable", Head: "foo.v1"},
		{Package: "foo", Name: "broken", HeadErr: errors.New("no channel head found in graph")},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "PACKAGE  CHANNEL  HEAD\nfoo      stable   foo.v1\nfoo      broken   ERROR: no channel head found in graph\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestLoad(t *testing.T) {
	c, err := Load(context.Background(), &render.Renderer{}, "../../testdata/catalog")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.Packages()); got != 3 {
		t.Errorf("%d packages, want 3", got)
	}
	rows, err := c.Bundles("kubevirt-wol")
	if err != nil || len(rows) != 3 {
		t.Errorf("kubevirt-wol: %d rows (%v), want one per channel", len(rows), err)
	}
	if _, err := c.Bundles("nope"); err == nil {
		t.Error("unknown package accepted")
	}
	_, err = Load(context.Background(), &render.Renderer{}, "../../testdata/demo")
	var invalid *validate.InvalidError
	if !errors.As(err, &invalid) || len(invalid.Problems) == 0 {
		t.Errorf("invalid catalog: %v", err)
	}
}

// TestWriteBundlesDeprecated checks the DEPRECATED column: last, joined
// with commas, and no padding left at the end of rows without one.
func TestWriteBundlesDeprecated(t *testing.T) {
	var buf bytes.Buffer
	err := WriteBundles(&buf, []Bundle{
		{Package: "foo", Channel: "stable", Name: "foo.v1", Image: "quay.io/x/foo:v1", Deprecated: []string{"bundle", "channel"}},
		{Package: "foo", Channel: "stable", Name: "foo.v2", Replaces: "foo.v1", Image: "quay.io/x/foo:v2"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "PACKAGE  CHANNEL  BUNDLE  REPLACES  SKIPS  SKIP RANGE  IMAGE             DEPRECATED\n" +
		"foo      stable   foo.v1                               quay.io/x/foo:v1  bundle,channel\n" +
		"foo      stable   foo.v2  foo.v1                       quay.io/x/foo:v2\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}
