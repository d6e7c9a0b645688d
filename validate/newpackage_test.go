package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewPackage: a new package's blob is refused with what would make
// it valid, and holds its icon and description.
func TestNewPackage(t *testing.T) {
	for _, tt := range []struct {
		o    PackageOptions
		want string
	}{
		{PackageOptions{}, "the package name is empty"},
		{PackageOptions{Name: "Foo_Bar"}, "for instance opm init foo-bar"},
		{PackageOptions{Name: "-" + strings.Repeat("a", 70)}, "for instance opm init " + strings.Repeat("a", 63) + "\x00"},
		{PackageOptions{Name: "foo", DefaultChannelGiven: true}, "PackageOptions.DefaultChannel is empty: name the channel that subscriptions default to (e.g. PackageOptions.DefaultChannel stable), or leave it out"},
		{PackageOptions{Name: "foo", IconFile: filepath.Join(t.TempDir(), "none.png")}, "open icon file"},
	} {
		_, err := NewPackage(tt.o)
		if err == nil || !strings.Contains(err.Error()+"\x00", tt.want) {
			t.Errorf("%+v: %v, want %q", tt.o, err, tt.want)
		}
	}
	dir := t.TempDir()
	icon, readme := filepath.Join(dir, "icon.svg"), filepath.Join(dir, "README.md")
	os.WriteFile(icon, []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), 0o644)
	os.WriteFile(readme, []byte("# Foo\n"), 0o644)
	pkg, err := NewPackage(PackageOptions{Name: "foo", DefaultChannel: "stable", IconFile: icon, DescriptionFile: readme})
	if err != nil || pkg.Icon == nil || pkg.Icon.MediaType != "image/svg+xml" || pkg.Description != "# Foo\n" || pkg.DefaultChannel != "stable" {
		t.Fatalf("%+v %v", pkg, err)
	}
	if _, err := NewPackage(PackageOptions{Name: "foo", IconFile: readme}); err == nil || !strings.Contains(err.Error(), "icon file") {
		t.Errorf("a README for an icon: %v", err)
	}
	if _, err := NewPackage(PackageOptions{Name: "foo", DescriptionFile: filepath.Join(dir, "none")}); err == nil {
		t.Error("a missing description")
	}
}
