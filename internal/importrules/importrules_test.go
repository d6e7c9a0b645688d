package importrules

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/fbcat/opm"

// layers gives every top-level folder of the module its layer: a package
// may import packages of lower layers and of its own folder, never of a
// higher layer nor of another folder of the same layer. A new top-level
// folder must be given its layer here before anything builds on it.
//
// The catalog repository (catalogrepo), catalog editing (author), lint
// and OLM v1 have their own folders above alpha; author edits the
// repository catalogrepo reads, and lint reads it with catalogrepo and
// builds on olmv1, never on author.
var layers = map[string]int{
	"internal":    0, // private leaves: import nothing of the module
	"option":      0, // the one error that names an option of the library
	"position":    0, // the one error of a place in a file: file, line, column, message, cause
	"encoding":    1, // the JSON/YAML value and codec
	"declcfg":     2, // FBC types, load, write
	"model":       3, // package -> channel -> bundle index
	"image":       4, // registries, layouts, archives, extraction
	"registryv1":  4, // bundle directories
	"render":      5,
	"validate":    5,
	"generate":    5,
	"serve":       6,  // gRPC and HTTP APIs over a loaded catalog
	"alpha":       7,  // upstream's alpha use cases
	"catalogrepo": 8,  // the catalog repository: operators/<pkg>/ and catalogs/, read, edited in place, written all or none
	"olmv1":       8,  // what OLM v1 installs from a bundle: verdict, manifests, installer RBAC, ClusterExtension
	"author":      9,  // catalog authoring: the verbs that edit templates and catalogs (catalogrepo, 8)
	"lint":        10, // CI checks beyond validate; reads bundles, catalogs and operator dirs (catalogrepo, 8) and uses OLM v1's verdicts (olmv1, 8)
	"bench":       10, // commands: catalog and repository writers, load generator, probes
	"cmd":         11,

	// catalog images without a container engine (opm alpha catalog
	// build): checks the catalog as serve (6) loads it, builds on image (4)
	"catalogimage": 7,
}

// pkg is one package of the module: its import path, whether it is a
// command, what it imports directly, what its tests import (its own and
// its external _test package's test files) and what it depends on at all.
type pkg struct {
	path        string
	main        bool
	imports     []string
	testImports []string
	deps        []string
}

// load lists the module's packages with `go list`, which follows build
// constraints as a build does.
func load(t *testing.T) []pkg {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list imports: %v", err)
	}
	format := `{{.ImportPath}} {{.Name}} {{join .Imports ","}} {{join .Deps ","}} {{join .TestImports ","}} {{join .XTestImports ","}}`
	cmd := exec.Command(goBin, "list", "-f", format, module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		f := strings.Split(sc.Text(), " ")
		if len(f) != 6 {
			t.Fatalf("go list: unexpected line %q", sc.Text())
		}
		pkgs = append(pkgs, pkg{path: f[0], main: f[1] == "main", imports: split(f[2]), deps: split(f[3]),
			testImports: append(split(f[4]), split(f[5])...)})
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages: not the whole module", len(pkgs))
	}
	// go test caches a passing run by the files the test process opens,
	// and go list's reads are not among them: opening every package's
	// directory makes a changed or added file run the rules again.
	for _, p := range pkgs {
		if rest, ok := strings.CutPrefix(p.path, module+"/"); ok {
			if _, err := os.ReadDir(filepath.Join("..", "..", rest)); err != nil {
				t.Fatalf("reading the directory of %s: %v", p.path, err)
			}
		}
	}
	return pkgs
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// folder returns the top-level folder of a package of the module, or ""
// for a package outside it.
func folder(path string) string {
	rest, ok := strings.CutPrefix(path, module+"/")
	if !ok {
		return ""
	}
	top, _, _ := strings.Cut(rest, "/")
	return top
}

// matches reports whether dep is prefix or a package below it.
func matches(dep, prefix string) bool {
	return dep == prefix || strings.HasPrefix(dep, prefix+"/")
}

// layerViolations lists, one message each, the imports that break the
// layer order, and packages in folders that have no layer. Tests obey the
// same order as the code they test: a test may use helpers of its own
// folder or of lower layers (declcfg/declcfgtest, author/authortest),
// never of a layer above.
func layerViolations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		from := folder(p.path)
		rank, ok := layers[from]
		if !ok {
			out = append(out, p.path+": top-level folder "+from+" has no layer: add it to layers")
			continue
		}
		out = append(out, upward(p.path, from, rank, p.imports, "imports")...)
		out = append(out, upward(p.path, from, rank, p.testImports, "test imports")...)
	}
	return out
}

// upward lists the imports of path (in folder from, of layer rank) that
// are not below it; verb says whose imports they are.
func upward(path, from string, rank int, imports []string, verb string) []string {
	var out []string
	for _, imp := range imports {
		to := folder(imp)
		if to == "" || to == from {
			continue
		}
		if r, ok := layers[to]; ok && r < rank {
			continue
		}
		out = append(out, path+" "+verb+" "+imp+": "+to+" is not below "+from+" in the layer order")
	}
	return out
}

// forbidden lists the dependencies of p that match one of prefixes.
func forbidden(p pkg, why string, prefixes ...string) []string {
	var out []string
	for _, d := range p.deps {
		for _, f := range prefixes {
			if matches(d, f) {
				out = append(out, p.path+" depends on "+d+": "+why)
			}
		}
	}
	return out
}

// kubernetesValidation is operator-framework/api's validation, which
// lint/osdk runs: its CRD validator is Kubernetes' API server's, whose
// libraries (k8s.io/component-base) link cobra and pflag.
const kubernetesValidation = "github.com/operator-framework/api/pkg/validation"

// cliVisible is p with what it depends on as far as the command-line
// rule sees it: for a package that links Kubernetes' validation, only
// what it imports itself (the command line comes with those libraries,
// never called).
func cliVisible(p pkg) pkg {
	for _, d := range p.deps {
		if d == kubernetesValidation {
			p.deps = p.imports
			break
		}
	}
	return p
}

// light are the packages every command loads: no network, images,
// validation or command line in them.
var light = []string{"internal", "option", "position", "encoding", "declcfg", "model"}

// ruleViolations lists what breaks the rules beyond the layer order.
func ruleViolations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		if !p.main {
			out = append(out, forbidden(p, "the library never depends on the command line",
				module+"/cmd", module+"/bench/cmd")...)
			out = append(out, forbidden(cliVisible(p), "the library never depends on the command line",
				"github.com/spf13/cobra", "github.com/spf13/pflag")...)
		}
		for _, l := range light {
			if matches(p.path, module+"/"+l) && !strings.HasSuffix(p.path, "/importrules") {
				out = append(out, forbidden(p, "the catalog model stays light: no network, images, validation or CLI",
					"google.golang.org/grpc", "github.com/google/go-containerregistry", "cuelang.org/go",
					"net/http", "github.com/spf13/cobra")...)
			}
		}
		if matches(p.path, module+"/lint") {
			out = append(out, lintWithoutAuthor(p)...)
		}
		out = append(out, kubernetesServerDeps(p)...)
		if matches(p.path, module+"/validate") {
			out = append(out, forbidden(p, "validation is local: it pulls no images and serves nothing",
				"github.com/google/go-containerregistry", "google.golang.org/grpc")...)
		}
	}
	return out
}

// kubernetesServer are operator-framework/api and the Kubernetes API
// server's libraries its validators pull in: hundreds of packages whose
// initialisers Go runs before main in any program that links them,
// whichever command runs. Only lint/osdk, which holds the validators,
// and opm-osdk, the executable opm runs them in, depend on them; opm and
// the rest of the library do not (lint talks to opm-osdk through
// lint/osdk/suites).
var kubernetesServer = []string{"github.com/operator-framework/api", "k8s.io/apiserver", "k8s.io/apiextensions-apiserver"}

// crdTypes are the CRD's API types, which olmv1 decodes CRDs into as
// operator-controller does: types, not the API server.
const crdTypes = "k8s.io/apiextensions-apiserver/pkg/apis"

// validatorHomes are the packages that may link kubernetesServer.
var validatorHomes = []string{module + "/lint/osdk", module + "/cmd/opm-osdk"}

// kubernetesServerDeps lists what of kubernetesServer p depends on,
// unless p is one of validatorHomes.
func kubernetesServerDeps(p pkg) []string {
	if slices.Contains(validatorHomes, p.path) {
		return nil
	}
	const why = "operator-framework/api's validators and the Kubernetes API server's libraries are linked only into opm-osdk (lint/osdk), so that no command of opm pays their initialisers at start"
	var out []string
	for _, d := range p.deps {
		if matches(d, crdTypes) {
			continue
		}
		for _, k := range kubernetesServer {
			if matches(d, k) {
				out = append(out, p.path+" depends on "+d+": "+why)
			}
		}
	}
	return out
}

// lintWithoutAuthor lists what of author a package of lint depends on,
// or its tests import: lint reads catalog repositories with catalogrepo,
// which author builds its verbs on, and never through the verbs, so that
// neither room's changes reach into the other's.
func lintWithoutAuthor(p pkg) []string {
	const why = "lint reads catalog repositories with catalogrepo, never through author"
	out := forbidden(p, why, module+"/author")
	for _, imp := range p.testImports {
		if matches(imp, module+"/author") {
			out = append(out, p.path+" test imports "+imp+": "+why)
		}
	}
	return out
}

func TestImportRules(t *testing.T) {
	pkgs := load(t)
	for _, v := range append(layerViolations(pkgs), ruleViolations(pkgs)...) {
		t.Error(v)
	}
}

// TestUpwardImportFails adds imports that run up or across the layers to
// the module's real import graph and checks that each is reported.
func TestUpwardImportFails(t *testing.T) {
	pkgs := load(t)
	inject := map[string]string{
		module + "/declcfg":          module + "/render",         // foundation -> use case
		module + "/internal/fserr":   module + "/encoding/value", // leaf -> anything
		module + "/render":           module + "/validate",       // across one layer
		module + "/encoding/value":   module + "/cmd/opm",        // anything -> the command
		module + "/serve":            module + "/alpha/list",     // down the stack -> up
		module + "/registryv1":       module + "/image",          // peers
		module + "/model":            module + "/serve/api",
		module + "/encoding/fbcyaml": module + "/declcfg",
	}
	for i := range pkgs {
		if to, ok := inject[pkgs[i].path]; ok {
			pkgs[i].imports = append(pkgs[i].imports, to)
		}
	}
	got := strings.Join(layerViolations(pkgs), "\n")
	for from, to := range inject {
		if !strings.Contains(got, from+" imports "+to+":") {
			t.Errorf("the injected import %s -> %s was not reported; reported:\n%s", from, to, got)
		}
	}

	// Tests obey the layers too: a benchmark helper above its users fails.
	tested := pkg{path: module + "/declcfg", testImports: []string{module + "/bench/cmd/gencatalog", module + "/declcfg/declcfgtest"}}
	got = strings.Join(layerViolations([]pkg{tested}), "\n")
	if want := module + "/declcfg test imports " + module + "/bench/cmd/gencatalog:"; !strings.Contains(got, want) || strings.Contains(got, "declcfgtest") {
		t.Errorf("test imports of declcfg: reported %q, want only %q", got, want)
	}

	// A package in a folder without a layer is reported too.
	got = strings.Join(layerViolations([]pkg{{path: module + "/newthing"}}), "\n")
	if !strings.Contains(got, "newthing has no layer") {
		t.Errorf("a folder without a layer was not reported: %q", got)
	}

	// The light packages may not pull the network in, even indirectly.
	bad := pkg{path: module + "/declcfg", deps: []string{"net/http"}}
	if v := ruleViolations([]pkg{bad}); len(v) != 1 {
		t.Errorf("declcfg depending on net/http: got %q, want one violation", v)
	}
}

// TestLintImportingAuthorFails: lint depending on author (directly or
// through another package), or its tests importing a helper of author's,
// is reported, though author is below lint in the layer order; lint on
// catalogrepo is not.
func TestLintImportingAuthorFails(t *testing.T) {
	for _, tc := range []struct {
		p    pkg
		want string
	}{
		{pkg{path: module + "/lint", imports: []string{module + "/author"}, deps: []string{module + "/author"}}, module + "/lint depends on " + module + "/author:"},
		{pkg{path: module + "/lint/pipeline", deps: []string{module + "/lint/layout", module + "/author/complete"}}, module + "/lint/pipeline depends on " + module + "/author/complete:"},
		{pkg{path: module + "/lint", testImports: []string{module + "/author/authortest"}}, module + "/lint test imports " + module + "/author/authortest:"},
	} {
		got := strings.Join(append(layerViolations([]pkg{tc.p}), ruleViolations([]pkg{tc.p})...), "\n")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s with %v: reported %q, want %q", tc.p.path, append(tc.p.deps, tc.p.testImports...), got, tc.want)
		}
	}
	fine := pkg{path: module + "/lint", imports: []string{module + "/catalogrepo"}, deps: []string{module + "/catalogrepo", module + "/catalogrepo/stage"},
		testImports: []string{module + "/catalogrepo/catalogrepotest"}}
	if v := append(layerViolations([]pkg{fine}), ruleViolations([]pkg{fine})...); len(v) > 0 {
		t.Errorf("lint on catalogrepo: %q", v)
	}
}

// TestKubernetesServerOutsideHelperFails: opm, lint or lint/osdk/suites
// depending on operator-framework/api or the Kubernetes API server's
// libraries is reported; lint/osdk and opm-osdk are not, nor the CRD
// types olmv1 decodes into.
func TestKubernetesServerOutsideHelperFails(t *testing.T) {
	deps := []string{"github.com/operator-framework/api/pkg/validation", "k8s.io/apiserver/pkg/cel", "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"}
	for _, path := range []string{module + "/cmd/opm", module + "/lint", module + "/lint/osdk/suites"} {
		got := strings.Join(ruleViolations([]pkg{{path: path, main: path == module+"/cmd/opm", deps: deps}}), "\n")
		for _, d := range deps {
			if !strings.Contains(got, path+" depends on "+d+": ") {
				t.Errorf("%s depending on %s was not reported: %q", path, d, got)
			}
		}
	}
	for _, p := range []pkg{
		{path: module + "/lint/osdk", deps: deps},
		{path: module + "/cmd/opm-osdk", main: true, deps: deps},
		{path: module + "/cmd/opm", main: true, deps: []string{crdTypes + "/apiextensions/v1"}},
	} {
		if v := ruleViolations([]pkg{p}); len(v) > 0 {
			t.Errorf("%s with %v: %q", p.path, p.deps, v)
		}
	}
}
