package render

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/declcfg"
)

// A migration rewrites rendered catalog content into a newer form.
type migration struct {
	name string
	help string
	run  func(*declcfg.Bundle) error
}

// The migrations, oldest first. A level runs every migration up to and
// including the one it names.
var migrations = []migration{
	{"bundle-object-to-csv-metadata", `migrates bundles' "olm.bundle.object" to "olm.csv.metadata"`, bundleObjectToCSVMetadata},
}

// Migrations is the list of migrations a level selects.
type Migrations []migration

// NoMigrations is the level that runs nothing.
const NoMigrations = "none"

// AllMigrations is the level that runs everything.
const AllMigrations = "all"

// MigrationsFor returns the migrations up to and including level. The empty
// level and "none" select nothing, "all" everything.
func MigrationsFor(level string) (Migrations, error) {
	switch level {
	case "", NoMigrations:
		return nil, nil
	case AllMigrations:
		return migrations, nil
	}
	for i, m := range migrations {
		if m.name == level {
			return migrations[:i+1], nil
		}
	}
	return nil, fmt.Errorf("unknown migration level %q (choose one of: %s)", level, strings.Join(MigrationLevels(), ", "))
}

// MigrationLevels lists the level names, "none" first.
func MigrationLevels() []string {
	out := []string{NoMigrations}
	for _, m := range migrations {
		out = append(out, m.name)
	}
	return out
}

// MigrationHelp describes the levels as upstream's help text does.
func MigrationHelp() string {
	var b strings.Builder
	b.WriteString("The migrator will run all migrations up to and including the selected level.\n")
	width := len(NoMigrations)
	for _, m := range migrations {
		width = max(width, len(m.name))
	}
	fmt.Fprintf(&b, "  - %-*s : %s\n", width, NoMigrations, "do nothing")
	for _, m := range migrations {
		fmt.Fprintf(&b, "  - %-*s : %s\n", width, m.name, m.help)
	}
	return b.String()
}

// Run applies the migrations to a bundle in order. (Every migration so
// far rewrites bundles one at a time, which lets rendering stream.)
func (ms Migrations) Run(b *declcfg.Bundle) error {
	for _, m := range ms {
		if err := m.run(b); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}
