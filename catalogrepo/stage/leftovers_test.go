package stage

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
	"github.com/fbcat/opm/validate"
)

// TestRecoverRemovesOldTempFiles plants the temporary files older opm
// releases left when killed (".catalog.yaml.opm-123456" beside catalogs
// and templates) among files that only look like them: Recover removes
// exactly the former, says so, and catalogs/v4.16 (which has only a
// leftover) validates again.
func TestRecoverRemovesOldTempFiles(t *testing.T) {
	root := testRepo(t)
	catalog, err := os.ReadFile(filepath.Join(root, "catalogs/v4.16/widget/catalog.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	leftovers := []string{
		"catalogs/v4.16/widget/.catalog.yaml.opm-123456",
		"catalogs/v4.17/widget/.catalog.json.opm-7",
		"operators/widget/catalog-templates/.v4.16.yaml.opm-4294967295",
	}
	kept := []string{
		"catalogs/v4.17/widget/.catalog.yaml.opm-12a",        // not digits
		"catalogs/v4.17/widget/catalog.yaml.opm-1",           // no leading dot
		"catalogs/v4.17/.catalog.yaml.opm-1",                 // not in a package directory
		"catalogs/v4.17/widget/sub/.catalog.yaml.opm-1",      // deeper
		"operators/widget/.ci.yaml.opm-1",                    // not a template directory
		"operators/widget/1.0.0/manifests/.csv.yaml.opm-1",   // a bundle's
		"operators/widget/catalog-templates/.opm-1",          // no file name
		"operators/widget/catalog-templates/.v4.16.yaml.opm", // no number
	}
	for _, f := range append(slices.Clone(leftovers), kept...) {
		writeTestFile(t, filepath.Join(root, f), catalog)
	}
	if err := os.Mkdir(filepath.Join(root, "catalogs/v4.17/widget/.dir.opm-5"), 0o755); err != nil {
		t.Fatal(err)
	}
	if valid(t, root, "catalogs/v4.16") {
		t.Fatal("catalogs/v4.16 validates with a copy of its catalog beside it")
	}
	rec, err := Recover(root)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(leftovers)
	if got := slices.Sorted(slices.Values(rec.Leftovers)); !slices.Equal(got, leftovers) {
		t.Errorf("Recover removed %v, want %v", got, leftovers)
	}
	for _, f := range leftovers {
		if _, err := os.Stat(filepath.Join(root, f)); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", f, err)
		}
	}
	for _, f := range append(kept, "catalogs/v4.17/widget/.dir.opm-5") {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s was removed: %v", f, err)
		}
	}
	notes := strings.Join(rec.Notes(), "\n")
	if !strings.Contains(notes, "older opm") || !strings.Contains(notes, leftovers[0]) {
		t.Errorf("Recover's notes do not name the files removed: %q", notes)
	}
	if !valid(t, root, "catalogs/v4.16") {
		t.Error("catalogs/v4.16 does not validate after Recover")
	}
	if rec, err := Recover(root); err != nil || len(rec.Notes()) != 0 {
		t.Errorf("a second Recover: %v, %q", err, rec.Notes())
	}
}

// testRepo copies the repository of the project's testdata.
func testRepo(t *testing.T) string {
	t.Helper()
	return catalogrepotest.Copy(t, "../../testdata/repo")
}

// valid validates a root-relative catalog directory.
func valid(t *testing.T, root, dir string) bool {
	t.Helper()
	res, err := validate.Validate(t.Context(), os.DirFS(filepath.Join(root, dir)), validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Passed()
}

func writeTestFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
