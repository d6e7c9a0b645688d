package importrules

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/fbcat/opm"

// pkg is one package of the module and everything it depends on,
// directly or not.
type pkg struct {
	path string
	main bool
	deps []string
}

// load lists the module's packages with `go list`, which follows build
// constraints as a build does.
func load(t *testing.T) []pkg {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list imports: %v", err)
	}
	cmd := exec.Command(goBin, "list", "-f", `{{.ImportPath}} {{.Name}} {{join .Deps " "}}`, module+"/...")
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
		f := strings.Fields(sc.Text())
		pkgs = append(pkgs, pkg{path: f[0], main: f[1] == "main", deps: f[2:]})
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages: not the whole module", len(pkgs))
	}
	return pkgs
}

// matches reports whether dep is prefix or a package below it.
func matches(dep, prefix string) bool {
	return dep == prefix || strings.HasPrefix(dep, prefix+"/")
}

// check fails for every dependency of p that one of forbidden matches.
func check(t *testing.T, p pkg, why string, forbidden ...string) {
	t.Helper()
	for _, d := range p.deps {
		for _, f := range forbidden {
			if matches(d, f) {
				t.Errorf("%s depends on %s: %s", p.path, d, why)
			}
		}
	}
}

func TestImportRules(t *testing.T) {
	light := map[string]bool{
		module + "/declcfg":          true,
		module + "/model":            true,
		module + "/internal/value":   true,
		module + "/internal/fbcyaml": true,
		module + "/internal/fserr":   true,
		module + "/internal/labels":  true,
	}
	seen := 0
	for _, p := range load(t) {
		if p.main {
			continue
		}
		check(t, p, "the library never depends on the command line",
			module+"/cmd", module+"/internal/cmd", "github.com/spf13/cobra", "github.com/spf13/pflag")
		if light[p.path] {
			seen++
			check(t, p, "the catalog model stays light: no network, images, validation or CLI",
				"google.golang.org/grpc", "github.com/google/go-containerregistry", "cuelang.org/go",
				"net/http", "github.com/spf13/cobra",
				module+"/validate", module+"/render", module+"/internal/image", module+"/internal/serve",
				module+"/internal/api", module+"/internal/bundle")
		}
		if p.path == module+"/validate" {
			check(t, p, "validation is local: it pulls no images and serves nothing",
				"github.com/google/go-containerregistry", "google.golang.org/grpc",
				module+"/render", module+"/internal/image", module+"/internal/serve")
		}
	}
	if seen != len(light) {
		t.Errorf("found %d of the %d light packages: update the list", seen, len(light))
	}
}
