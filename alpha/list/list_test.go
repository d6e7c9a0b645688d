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
