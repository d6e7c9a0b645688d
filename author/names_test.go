package author

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/internal/suggest"
)

// twoTemplates is widget with a second basic template whose fast channel
// is named alpha instead.
func twoTemplates(t *testing.T) *Package {
	t.Helper()
	p := open(t, testRepo(t), "widget")
	other := *p.Templates[0]
	other.TemplateFile, other.Path, other.Catalogs = "other.yaml", "operators/widget/catalog-templates/other.yaml", nil
	other.Data = []byte(strings.Replace(string(other.Data), "  name: fast\n", "  name: alpha\n", 1))
	p.Templates = append(p.Templates, &other)
	return p
}

func TestUnknownChannels(t *testing.T) {
	ctx := context.Background()
	p := twoTemplates(t)
	for _, tt := range []struct {
		channel, want string
		near, known   []string
	}{
		{"tsable", `no template of operators/widget has channel "tsable": did you mean stable?`, []string{"stable"}, nil},
		{"lapha", `no template of operators/widget has channel "lapha": did you mean alpha?`, []string{"alpha"}, nil},
		{"nightly", `no template of operators/widget has channel "nightly" (channels: alpha, fast, stable)`, nil, []string{"alpha", "fast", "stable"}},
		{"fast", `channel "fast" is not in other.yaml: the default channel must be a channel of every template (the channels all of them have: stable)`, nil, nil},
	} {
		_, err := p.SetDefaultChannel(ctx, DefaultChannelRequest{Channel: tt.channel}, Options{})
		if err == nil || err.Error() != tt.want || !IsRefusal(err) {
			t.Errorf("default-channel %s: %v, want %q", tt.channel, err, tt.want)
			continue
		}
		var unknown *suggest.Unknown
		if errors.As(err, &unknown) != (tt.near != nil || tt.known != nil) {
			t.Errorf("default-channel %s: an unknown name? %v", tt.channel, err)
		} else if unknown != nil && (!slices.Equal(unknown.Near, tt.near) || !slices.Equal(unknown.Known, tt.known) || unknown.Kind != "channel" || unknown.Name != tt.channel) {
			t.Errorf("default-channel %s: %+v", tt.channel, unknown)
		}
	}
	_, err := p.Deprecate(ctx, DeprecateRequest{Channel: "satble"}, Options{})
	if err == nil || err.Error() != `no basic template of operators/widget has channel "satble": did you mean stable?` {
		t.Errorf("deprecate --channel satble: %v", err)
	}
	if got := p.Channels(); !slices.Equal(got, []string{"alpha", "fast", "stable"}) {
		t.Errorf("Channels: %q", got)
	}
}

func TestNoChannelInAll(t *testing.T) {
	p := twoTemplates(t)
	p.Templates[1].Data = []byte(strings.Replace(string(p.Templates[1].Data), "  name: stable\n", "  name: beta\n", 1))
	_, err := p.SetDefaultChannel(context.Background(), DefaultChannelRequest{Channel: "fast"}, Options{})
	if err == nil || !strings.HasSuffix(err.Error(), "(none is in all of them)") {
		t.Errorf("no common channel: %v", err)
	}
}
