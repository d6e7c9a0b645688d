// Command genrepo writes a synthetic operator repository for the catalog
// authoring benchmarks (author/authortest) into a directory:
//
//	go run ./bench/cmd/genrepo [-templates N] [-bundles N] DIR   # DIR must not exist
//	go run ./bench/cmd/genrepo [-templates N] [-bundles N] -name  # the repository's name
//
// The defaults are declcfgtest.BenchRepo's: 20 templates of 500 bundles.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/fbcat/opm/author/authortest"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

func main() {
	o := declcfgtest.BenchRepo
	flag.IntVar(&o.Templates, "templates", o.Templates, "templates (and catalogs), one per OpenShift version from 4.12")
	flag.IntVar(&o.Bundles, "bundles", o.Bundles, "bundles released in every template")
	name := flag.Bool("name", false, "print the repository's name and exit")
	flag.Parse()
	if *name {
		fmt.Println(o.Name())
		return
	}
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: genrepo [-templates N] [-bundles N] DIR | -name")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if err := os.Mkdir(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := authortest.Write(context.Background(), dir, o); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: operator %s, %d templates of %d bundles, next bundle %s\n", dir, declcfgtest.RepoOperator, o.Templates, o.Bundles, o.NextVersion())
}
