// Command genlintrepo writes an operator repository for the lint
// benchmarks (catalogrepo/catalogrepotest) into a directory, from a real bundle
// directory:
//
//	go run ./bench/cmd/genlintrepo -shape sail|hive [-bundles N] SOURCE DIR   # DIR must not exist
//
// sail is shaped like the community repository's sailoperator (43 large
// bundle directories), hive like hive-operator (225 small ones); -bundles
// writes only the first N versions (the repository before a release). It
// prints the operator directory.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
)

func main() {
	shape := flag.String("shape", "sail", "sail or hive")
	bundles := flag.Int("bundles", 0, "write only the first N versions (0: the shape's)")
	flag.Parse()
	if flag.NArg() != 2 || *shape != "sail" && *shape != "hive" {
		fmt.Fprintln(os.Stderr, "usage: genlintrepo -shape sail|hive [-bundles N] SOURCE DIR")
		os.Exit(2)
	}
	o := catalogrepotest.SailShape(flag.Arg(0))
	if *shape == "hive" {
		o = catalogrepotest.HiveShape(flag.Arg(0))
	}
	if *bundles > 0 {
		o.InCatalogs -= o.Bundles - *bundles
		o.Bundles = *bundles
	}
	dir := flag.Arg(1)
	if err := os.Mkdir(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pkg, err := catalogrepotest.WriteLintRepo(dir, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(filepath.Join(dir, "operators", pkg))
}
