package render

import (
	"fmt"
	"text/template"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/option"
)

// Options are render's choices as a caller gives them in words: Migrate
// runs every migration, MigrateLevel the migrations up to its level (one
// of MigrationLevels); ImageRefTemplate is the text/template of the
// image references of bundle directories (see Renderer.ImageRefTemplate).
type Options struct {
	Migrate          bool
	MigrateLevel     string
	ImageRefTemplate string
}

// Validate checks the choices: at most one of Migrate and MigrateLevel,
// a level there is, a template that parses.
func (o Options) Validate() error {
	_, _, err := o.parse()
	return err
}

func (o Options) parse() (Migrations, *template.Template, error) {
	level := o.MigrateLevel
	if o.Migrate {
		if level != "" {
			return nil, nil, option.Errorf(option.Conflict, "%s and %s cannot both be given", option.Name("render.Options.Migrate"), option.Name("render.Options.MigrateLevel"))
		}
		level = AllMigrations
	}
	migrations, err := MigrationsFor(level)
	if err != nil || o.ImageRefTemplate == "" {
		return migrations, nil, err
	}
	tmpl, err := template.New("image").Parse(o.ImageRefTemplate)
	if err != nil {
		return nil, nil, fmt.Errorf("invalid image reference template: %w", err)
	}
	return migrations, tmpl, nil
}

// Renderer is the renderer of these choices, pulling images with images.
func (o Options) Renderer(images image.Options) (Renderer, error) {
	migrations, tmpl, err := o.parse()
	return Renderer{Migrations: migrations, ImageRefTemplate: tmpl, Images: images}, err
}
