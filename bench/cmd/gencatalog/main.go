// Command gencatalog writes a large synthetic file-based catalog for
// benchmarks (see declcfg/declcfgtest):
//
//	gencatalog [-packages N] [-bundles N] [-seed N] DIR
//	gencatalog [-packages N] [-bundles N] [-seed N] -name
//
// -name prints the name that says what the catalog holds (it changes with
// the options and with the generator's content), for caching it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fbcat/opm/declcfg/declcfgtest"
)

func main() {
	o := declcfgtest.Large
	flag.IntVar(&o.Packages, "packages", o.Packages, "number of packages")
	flag.IntVar(&o.Bundles, "bundles", o.Bundles, "about how many bundles")
	flag.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the content")
	name := flag.Bool("name", false, "print the catalog's name and exit")
	flag.Parse()
	if *name {
		fmt.Println(o.Name())
		return
	}
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gencatalog [-packages N] [-bundles N] [-seed N] DIR | -name")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := declcfgtest.Write(dir, o); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
