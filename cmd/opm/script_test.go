package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/authn"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fbcat/opm/alpha/template/templatetest"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/lint/osdk"
	"github.com/fbcat/opm/lint/osdk/suites"
)

// TestMain registers opm and opm-osdk as commands: testscript puts both
// in a directory it adds to $PATH, so that scripts exec them, and opm,
// as a script or a test of this process runs it, finds opm-osdk there
// (beside the executable, or on $PATH) as beside an installed opm.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"opm": func() { os.Exit(Main()) },
		suites.HelperName: func() {
			if err := osdk.Serve(os.Stdin, os.Stdout); err != nil {
				fmt.Fprintln(os.Stderr, "opm-osdk:", err)
				os.Exit(1)
			}
		},
	})
}

// TestScripts runs the command-line scenarios in testdata/script.
// UPDATE_SCRIPTS=1 rewrites their expected output.
//
// Scripts see $TESTDATA (the project's testdata), $REGISTRY (an
// in-process registry holding a catalog image, catalog:v1, bundle images,
// bundles/NAME:vVERSION, widget-operator-bundle:v1.2.0 (testdata/repo's
// widget 1.2.0), a multi-platform image, multi:v1, whose
// linux/amd64 image is the catalog and linux/arm64 image a bundle, and
// opm-base:v1, a linux/amd64 and linux/arm64 base with our /bin/opm) and
// $LOCALHOST_REGISTRY (the same registry named localhost:PORT),
// $AUTH_REGISTRY (the catalog image behind basic auth, with
// $WORK/auth.json holding its credentials); $LOCAL holds the same images
// outside a registry (see writeLocalImages). $WORK/templates is a copy of
// testdata/templates whose templates and goldens name the bundle images
// of its images.txt, pushed to $REGISTRY/tmpl.
//
// Beyond testscript's commands, scripts have "mkfifo PATH" (a named pipe,
// on unix), "cpdir FROM TO" (a directory tree; TO must not exist),
// "replace OLD NEW FILE" (every OLD in FILE), "rename FROM TO", where
// TO may hold Go escapes (\x1b, \n) for names a script cannot spell, and
// "exitcode N PROGRAM [ARG...]" (PROGRAM exits with status N; its output
// is dropped).
func TestScripts(t *testing.T) {
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	reg, authReg := pushTestImages(t, testdata)
	tmpl := templatetest.PushAll(t, testdata, reg)
	local := writeLocalImages(t, testdata)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") == "1",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: mkfifo PATH")
				}
				ts.Check(makeFIFO(ts.MkAbs(args[0])))
			},
			"cpdir": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: cpdir FROM TO")
				}
				ts.Check(os.CopyFS(ts.MkAbs(args[1]), os.DirFS(ts.MkAbs(args[0]))))
			},
			"replace": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: replace OLD NEW FILE (\\n in OLD and NEW is a line end)")
				}
				old, repl := strings.ReplaceAll(args[0], `\n`, "\n"), strings.ReplaceAll(args[1], `\n`, "\n")
				data, err := os.ReadFile(ts.MkAbs(args[2]))
				ts.Check(err)
				if !strings.Contains(string(data), old) {
					ts.Fatalf("%s does not hold %q", args[2], old)
				}
				ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(strings.ReplaceAll(string(data), old, repl)), 0o644))
			},
			"exitcode": scriptExitCode,
			"replacecache": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: replacecache DIR OLD NEW")
				}
				files, err := filepath.Glob(filepath.Join(ts.MkAbs(args[0]), "*.json"))
				ts.Check(err)
				for _, f := range files {
					data, err := os.ReadFile(f)
					ts.Check(err)
					ts.Check(os.WriteFile(f, []byte(strings.ReplaceAll(string(data), args[1], args[2])), 0o644))
				}
			},
			"rename": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: rename FROM TO")
				}
				to, err := strconv.Unquote(`"` + args[1] + `"`)
				ts.Check(err)
				ts.Check(os.Rename(ts.MkAbs(args[0]), ts.MkAbs(to)))
			},
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("GOGC", "100")
			env.Setenv("TESTDATA", testdata)
			env.Setenv("REGISTRY", reg)
			env.Setenv("LOCALHOST_REGISTRY", strings.Replace(reg, "127.0.0.1", "localhost", 1))
			env.Setenv("AUTH_REGISTRY", authReg)
			if err := templatetest.Expand(filepath.Join(testdata, "templates"), tmpl, filepath.Join(env.WorkDir, "templates")); err != nil {
				return err
			}
			env.Setenv("LOCAL", local)
			auth := base64.StdEncoding.EncodeToString([]byte("alice:s3cret"))
			return os.WriteFile(filepath.Join(env.WorkDir, "auth.json"), []byte(`{"auths":{"`+authReg+`":{"auth":"`+auth+`"}}}`), 0o600)
		},
	})
}

func pushTestImages(t *testing.T, testdata string) (reg, authReg string) {
	reg = imagetest.Registry(t, "", "")
	authReg = imagetest.Registry(t, "alice", "s3cret")
	catalog := imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.DirLayer(t, filepath.Join(testdata, "catalog"), "configs"))
	imagetest.Push(t, reg+"/catalog:v1", catalog)
	imagetest.Push(t, authReg+"/catalog:v1", catalog, remote.WithAuth(&authn.Basic{Username: "alice", Password: "s3cret"}))
	bundles := map[string]string{
		"pelorus-operator:v0.0.2":          "pelorus-operator_0.0.2",
		"ack-ecrpublic-controller:v1.0.14": "ack-ecrpublic-controller_1.0.14",
	}
	for ref, dir := range bundles {
		imagetest.Push(t, reg+"/bundles/"+ref, imagetest.Image(t, map[string]string{labels.Package: "x"}, nil,
			imagetest.DirLayer(t, filepath.Join(testdata, "bundles", dir), "")))
	}
	arm := imagetest.Image(t, map[string]string{labels.Package: "x"}, &v1.Platform{OS: "linux", Architecture: "arm64"},
		imagetest.DirLayer(t, filepath.Join(testdata, "bundles", "pelorus-operator_0.0.2"), ""))
	imagetest.PushIndex(t, reg+"/multi:v1", catalog, arm)
	pushOpmBase(t, reg+"/opm-base:v1")
	imagetest.Push(t, reg+"/widget-operator-bundle:v1.2.0", imagetest.Image(t, map[string]string{labels.Package: "widget-operator"}, nil,
		imagetest.DirLayer(t, filepath.Join(testdata, "repo", "operators", "widget", "1.2.0"), "")))
	return reg, authReg
}

// pushOpmBase pushes a linux/amd64 and linux/arm64 base image whose
// /bin/opm is a tiny Go program of this module (the build information
// is what opm alpha catalog build reads).
func pushOpmBase(t *testing.T, ref string) {
	t.Helper()
	bin := string(imagetest.GoBinary(t, "github.com/fbcat/opm"))
	var imgs []v1.Image
	for _, arch := range []string{"amd64", "arm64"} {
		imgs = append(imgs, imagetest.Image(t, map[string]string{"base": "opm"}, &v1.Platform{OS: "linux", Architecture: arch},
			imagetest.Layer(t, imagetest.Entry{Name: "bin/", Type: '5'}, imagetest.Entry{Name: "bin/opm", Body: bin})))
	}
	imagetest.PushIndex(t, ref, imgs...)
}

// writeLocalImages writes the catalog image and the pelorus-operator
// bundle image as an OCI layout ($LOCAL/layout, named catalog:v1 and
// pelorus:v0.0.2), an OCI archive of that layout ($LOCAL/oci.tar) and a
// docker archive ($LOCAL/docker.tar, tagged
// quay.io/example/catalog:v1 and quay.io/example/pelorus-operator:v0.0.2).
func writeLocalImages(t *testing.T, testdata string) string {
	dir := t.TempDir()
	catalog := imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.DirLayer(t, filepath.Join(testdata, "catalog"), "configs"))
	bundle := imagetest.Image(t, map[string]string{labels.Package: "x"}, nil,
		imagetest.DirLayer(t, filepath.Join(testdata, "bundles", "pelorus-operator_0.0.2"), ""))
	layout := filepath.Join(dir, "layout")
	imagetest.WriteLayout(t, layout, "catalog:v1", catalog)
	imagetest.WriteLayout(t, layout, "pelorus:v0.0.2", bundle)
	imagetest.TarDir(t, layout, filepath.Join(dir, "oci.tar"))
	imagetest.WriteDockerArchive(t, filepath.Join(dir, "docker.tar"),
		[]string{"quay.io/example/catalog:v1", "quay.io/example/pelorus-operator:v0.0.2"}, catalog, bundle)
	return dir
}

// scriptExitCode is the script command "exitcode N PROGRAM [ARG...]": it
// runs PROGRAM in the script's directory and PATH and fails unless it
// exits with status N.
func scriptExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROGRAM [ARG...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	cmd := exec.Command(args[1], args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(os.Environ(), "PATH="+ts.Getenv("PATH"), "HOME="+ts.Getenv("HOME"), "TESTDATA="+ts.Getenv("TESTDATA"), "OPM_OSDK="+ts.Getenv("OPM_OSDK"))
	err = cmd.Run()
	got := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		got = exit.ExitCode()
	} else {
		ts.Check(err)
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}
