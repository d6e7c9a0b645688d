package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-containerregistry/pkg/authn"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fbcat/opm/alpha/template/templatetest"
	"github.com/fbcat/opm/internal/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"opm": func() { os.Exit(Main()) },
	})
}

// TestScripts runs the command-line scenarios in testdata/script.
// UPDATE_SCRIPTS=1 rewrites their expected output.
//
// Scripts see $TESTDATA (the project's testdata), $REGISTRY (an
// in-process registry holding a catalog image, catalog:v1, bundle images,
// bundles/NAME:vVERSION, and a multi-platform image, multi:v1, whose
// linux/amd64 image is the catalog and linux/arm64 image a bundle) and
// $AUTH_REGISTRY (the catalog image behind basic auth, with
// $WORK/auth.json holding its credentials). $WORK/templates is a copy of
// testdata/templates whose templates and goldens name the bundle images
// of its images.txt, pushed to $REGISTRY/tmpl.
func TestScripts(t *testing.T) {
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	reg, authReg := pushTestImages(t, testdata)
	tmpl := templatetest.PushAll(t, testdata, reg)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") == "1",
		Setup: func(env *testscript.Env) error {
			env.Setenv("GOGC", "100")
			env.Setenv("TESTDATA", testdata)
			env.Setenv("REGISTRY", reg)
			env.Setenv("AUTH_REGISTRY", authReg)
			if err := templatetest.Expand(filepath.Join(testdata, "templates"), tmpl, filepath.Join(env.WorkDir, "templates")); err != nil {
				return err
			}
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
	return reg, authReg
}
