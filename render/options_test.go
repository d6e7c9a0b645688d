package render

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/image"
)

// TestOptions: render's choices in words make a renderer, or say what is
// wrong with them.
func TestOptions(t *testing.T) {
	for _, tt := range []struct {
		o    Options
		want string
	}{
		{Options{Migrate: true, MigrateLevel: "none"}, "Options.Migrate and Options.MigrateLevel cannot both be given"},
		{Options{MigrateLevel: "newest"}, `unknown migration level "newest"`},
		{Options{ImageRefTemplate: "{{.Package"}, "invalid image reference template"},
	} {
		if err := tt.o.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.o, err, tt.want)
		}
	}
	r, err := Options{Migrate: true, ImageRefTemplate: "quay.io/x/{{.Package}}:v{{.Version}}"}.Renderer(image.Options{})
	if err != nil || len(r.Migrations) == 0 || r.ImageRefTemplate == nil {
		t.Errorf("%+v %v", r, err)
	}
}
