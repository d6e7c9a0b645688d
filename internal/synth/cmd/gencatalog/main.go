// Command gencatalog writes a large synthetic file-based catalog for
// benchmarks: gencatalog [-packages N] [-bundles N] [-format yaml|json] DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/synth"
)

func main() {
	o := synth.Large
	flag.IntVar(&o.Packages, "packages", o.Packages, "number of packages")
	flag.IntVar(&o.BundlesPerPackage, "bundles", o.BundlesPerPackage, "bundles per package")
	format := flag.String("format", string(o.Format), "json or yaml")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gencatalog [-packages N] [-bundles N] [-format yaml|json] DIR")
		os.Exit(2)
	}
	f, err := declcfg.ParseFormat(*format)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	o.Format = f
	dir := flag.Arg(0)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := synth.Write(dir, o); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
