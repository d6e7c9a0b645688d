package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/linttest"
)

// etcdTemplate is a basic template of the package of bundleObjectCatalog.
const etcdTemplate = `schema: olm.template.basic
entries:
- schema: olm.package
  name: etcd
  defaultChannel: alpha
- schema: olm.channel
  name: alpha
  package: etcd
  entries:
  - name: etcdoperator.v0.9.4
- schema: olm.bundle
  image: quay.io/operatorhubio/etcd:v0.9.4
`

// writeEtcdRepo writes a catalog repository whose operator etcd maps
// its basic template to the catalogs named, each the catalog given.
func writeEtcdRepo(t *testing.T, root string, catalog string, names ...string) {
	t.Helper()
	files := map[string]string{
		"operators/etcd/ci.yaml": "fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: basic.yaml\n    type: olm.template.basic\n    catalog_names: [" +
			strings.Join(names, ", ") + "]\n",
		"operators/etcd/catalog-templates/basic.yaml": etcdTemplate,
	}
	for _, n := range names {
		files["catalogs/"+n+"/etcd/catalog.yaml"] = catalog
	}
	linttest.WriteFiles(t, root, files)
}

// The same CSV problem of a bundle in three catalogs rendered from one
// template is one finding, at the template's line of the bundle's image,
// naming the catalogs. Linted as catalogs on their own, each catalog
// keeps its finding at its line; a bundle the template does not name is
// placed in the first catalog.
func TestAcrossCatalogsCSVFields(t *testing.T) {
	root := t.TempDir()
	csv := strings.Replace(testCSV(csvOpts{}), "categories: Database", "categories: Databases", 1)
	writeEtcdRepo(t, root, bundleObjectCatalog(t, csv), "v4.16", "v4.17", "v4.18")
	tmpl := filepath.Join(root, "operators", "etcd", "catalog-templates", "basic.yaml")
	isCategories := func(f finding.Finding) bool { return strings.Contains(f.Message, `categories "Databases"`) }
	got := run(t, []string{filepath.Join(root, "operators", "etcd")}, Options{Rules: []string{ruleCSVFields}}).Findings
	if len(got) != 1 || !isCategories(got[0]) || got[0].File != filepath.ToSlash(tmpl) || got[0].Line != lineOf(t, tmpl, "image: quay.io/operatorhubio/etcd:v0.9.4") ||
		strings.Join(got[0].Catalogs, ",") != "v4.16,v4.17,v4.18" || !strings.Contains(got[0].String(), `(package "etcd", channel "alpha") in catalogs v4.16, v4.17, v4.18: categories`) {
		t.Fatalf("want one finding at the template, in three catalogs, got:%s", dump(got))
	}

	got = run(t, []string{filepath.Join(root, "catalogs")}, Options{Rules: []string{ruleCSVFields}}).Findings
	if len(got) != 3 {
		t.Fatalf("want a finding per catalog, got:%s", dump(got))
	}
	for i, v := range []string{"v4.16", "v4.17", "v4.18"} {
		cat := filepath.Join(root, "catalogs", v, "etcd", "catalog.yaml")
		if got[i].File != cat || got[i].Line != lastLineOf(t, cat, "name: etcdoperator.v0.9.4") || len(got[i].Catalogs) != 1 || got[i].Catalogs[0] != v {
			t.Errorf("want the finding of %s at its bundle's name, got %s", v, got[i].String())
		}
	}

	replaceIn(t, tmpl, "image: quay.io/operatorhubio/etcd:v0.9.4", "image: quay.io/operatorhubio/etcd:v0.9.5")
	got = run(t, []string{filepath.Join(root, "operators", "etcd")}, Options{Rules: []string{ruleCSVFields}}).Findings
	first := filepath.Join(root, "catalogs", "v4.16", "etcd", "catalog.yaml")
	if len(got) != 1 || got[0].File != filepath.ToSlash(first) || got[0].Line != lastLineOf(t, first, "name: etcdoperator.v0.9.4") || len(got[0].Catalogs) != 3 {
		t.Fatalf("want one finding at the first catalog's bundle, got:%s", dump(got))
	}
}

// removed-api in catalogs: the API is gone from OpenShift 4.12, so the
// bundle in v4.11, v4.12 and v4.13 is one finding naming v4.12 and
// v4.13, whose fix is the same (use the API that replaces it, or leave
// the bundle out of those catalogs).
func TestAcrossCatalogsRemovedAPI(t *testing.T) {
	root := t.TempDir()
	writeEtcdRepo(t, root, bundleObjectCatalog(t, testCSV(csvOpts{}), cronJobV1beta1), "v4.11", "v4.12", "v4.13")
	got := run(t, []string{filepath.Join(root, "operators", "etcd")}, Options{Rules: []string{ruleRemovedAPI}}).Findings
	if len(got) != 1 || strings.Join(got[0].Catalogs, ",") != "v4.12,v4.13" || got[0].Object != "CronJob etcd-backup" ||
		!strings.HasSuffix(got[0].File, "catalog-templates/basic.yaml") || !strings.Contains(got[0].Message, "leave the bundle out of these catalogs") {
		t.Fatalf("want one finding in v4.12 and v4.13, got:%s", dump(got))
	}
}

// Findings that differ between catalogs stay apart, each naming its
// catalogs: here the entry replaces a bundle none has, another one in
// v4.18 than in v4.16 and v4.17. Both are at the template's entry.
func TestAcrossCatalogsDiffer(t *testing.T) {
	root := t.TempDir()
	cat := strings.Replace(bundleObjectCatalog(t, testCSV(csvOpts{})), "  - name: etcdoperator.v0.9.4\n", "  - name: etcdoperator.v0.9.4\n    replaces: etcdoperator.v0.9.2\n", 1)
	writeEtcdRepo(t, root, cat, "v4.16", "v4.17", "v4.18")
	replaceIn(t, filepath.Join(root, "catalogs", "v4.18", "etcd", "catalog.yaml"), "replaces: etcdoperator.v0.9.2", "replaces: etcdoperator.v0.9.3")
	got := run(t, []string{filepath.Join(root, "operators", "etcd")}, Options{Rules: []string{ruleDangling}}).Findings
	tmpl := filepath.Join(root, "operators", "etcd", "catalog-templates", "basic.yaml")
	entry := lineOf(t, tmpl, "- name: etcdoperator.v0.9.4")
	if len(got) != 2 {
		t.Fatalf("want two findings, got:%s", dump(got))
	}
	for i, want := range []struct{ catalogs, replaces string }{{"v4.16,v4.17", "v0.9.2"}, {"v4.18", "v0.9.3"}} {
		f := got[i]
		if f.File != filepath.ToSlash(tmpl) || f.Line != entry || f.Channel != "alpha" || strings.Join(f.Catalogs, ",") != want.catalogs || !strings.Contains(f.Message, want.replaces) {
			t.Errorf("want the entry replacing %s in %s, got %s", want.replaces, want.catalogs, f.String())
		}
	}
}

// Against a baseline, a finding that one more catalog has is the same
// finding (not new); one of a new bundle is new.
func TestAcrossCatalogsBaseline(t *testing.T) {
	old, root := t.TempDir(), t.TempDir()
	csv := strings.Replace(testCSV(csvOpts{}), "categories: Database", "categories: Databases", 1)
	writeEtcdRepo(t, old, bundleObjectCatalog(t, csv), "v4.16")
	writeEtcdRepo(t, root, bundleObjectCatalog(t, csv), "v4.16", "v4.17")
	opts := Options{Rules: []string{ruleCSVFields}, Baseline: old}
	res := run(t, []string{filepath.Join(root, "operators", "etcd")}, opts)
	if len(res.Findings) != 1 || len(res.Findings[0].Catalogs) != 2 || res.Findings[0].BaselineState != finding.BaselineUnchanged || len(res.Fixed) != 0 {
		t.Fatalf("want the finding in both catalogs, unchanged, got:%s", dump(res.Findings))
	}

	// 0.9.5, with the same problem, is the new head in both catalogs.
	to095 := strings.NewReplacer("etcdoperator.v0.9.4", "etcdoperator.v0.9.5", "0.9.4", "0.9.5")
	nb := bundleObjectCatalog(t, to095.Replace(csv))
	cat := bundleObjectCatalog(t, csv) + to095.Replace(nb[strings.Index(nb, "---\nschema: olm.bundle"):])
	cat = strings.Replace(cat, "  - name: etcdoperator.v0.9.4\n", "  - name: etcdoperator.v0.9.4\n  - name: etcdoperator.v0.9.5\n    replaces: etcdoperator.v0.9.4\n", 1)
	writeEtcdRepo(t, root, cat, "v4.16", "v4.17")
	res = run(t, []string{filepath.Join(root, "operators", "etcd")}, opts)
	if len(res.Findings) != 1 || res.Findings[0].Bundle != "etcdoperator.v0.9.5" || res.Findings[0].BaselineState != finding.BaselineNew ||
		len(res.Fixed) != 1 || res.Fixed[0].Bundle != "etcdoperator.v0.9.4" {
		t.Fatalf("want the new head's finding new (the old head's fixed: it is no head now), got:%s\nfixed:%s", dump(res.Findings), dump(res.Fixed))
	}
}

// A finding about the package is at the template's package entry.
func TestAcrossCatalogsPackage(t *testing.T) {
	root := t.TempDir()
	deprecated := bundleObjectCatalog(t, testCSV(csvOpts{})) +
		"---\nschema: olm.deprecations\npackage: etcd\nentries:\n  - reference:\n      schema: olm.channel\n      name: alpha\n    message: use stable\n"
	writeEtcdRepo(t, root, deprecated, "v4.16", "v4.17")
	got := run(t, []string{filepath.Join(root, "operators", "etcd")}, Options{Rules: []string{ruleDefaultDeprecated}}).Findings
	tmpl := filepath.Join(root, "operators", "etcd", "catalog-templates", "basic.yaml")
	if len(got) != 1 || got[0].File != filepath.ToSlash(tmpl) || got[0].Line != lineOf(t, tmpl, "name: etcd") || len(got[0].Catalogs) != 2 {
		t.Fatalf("want one finding at the template's package, got:%s", dump(got))
	}
}
