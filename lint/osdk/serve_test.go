package osdk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/osdk/suites"
)

// What opm-osdk answers is what Validate says of the directory as lint
// read it: for every real bundle (testdata's with -short), and for the
// bundles the loader stops on or measures apart (a hidden file, a
// subdirectory, a manifest that is a symbolic link), with the CRD
// verdicts of one Cache across the stream.
func TestServedAsValidated(t *testing.T) {
	dirs := conformanceBundles(t)
	if testing.Short() {
		dirs, _ = filepath.Glob("../../testdata/bundles/*")
	}
	dirs = append(dirs,
		seeded(t, node, [3]string{"manifests/.keep", "", ""}),
		seeded(t, node, [3]string{"manifests/sub/x.yaml", "", "kind: ConfigMap\n"}),
		seeded(t, node, [3]string{"manifests/empty.yaml", "", ""}),
		linked(t, seeded(t, node), "manifests/remediation.medik8s.io_nodehealthchecks.yaml"))
	v, err := InProcess(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var c Cache
	for _, dir := range dirs {
		b := readBundle(t, dir, "1.34")
		got, err := v.Validate(b)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if want := Validate(b, &c); !sorted(got).Equal(sorted(want)) {
			t.Errorf("%s: served\n%+v\nvalidated\n%+v", dir, got, want)
		}
	}
	if err := v.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

// sorted is r with each list of outputs sorted: the validators list some
// problems in the order of a Go map, which differs from run to run
// (lint sorts its findings).
func sorted(r *suites.Result) *suites.Result {
	byText := func(a, b suites.Output) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) }
	out := &suites.Result{Stopped: r.Stopped, Default: slices.SortedFunc(slices.Values(r.Default), byText)}
	for s := range r.Optional {
		out.Optional[s] = slices.SortedFunc(slices.Values(r.Optional[s]), byText)
	}
	return out
}

// linked moves the manifest file of dir out of manifests/ and puts a
// symbolic link to it in its place.
func linked(t *testing.T, dir, file string) string {
	t.Helper()
	away := filepath.Join(dir, "away.yaml")
	if err := os.Rename(filepath.Join(dir, file), away); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(away, filepath.Join(dir, file)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Serve refuses a stream that is not opm's.
func TestServeRefuses(t *testing.T) {
	if err := Serve(emptyReader{}, discard{}); err == nil {
		t.Error("served nothing")
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, os.ErrClosed }

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
