// Command genrepo writes the synthetic operator repository of the catalog
// authoring benchmarks (bench/repo) into a directory:
//
//	go run ./bench/cmd/genrepo DIR    # DIR must not exist
//	go run ./bench/cmd/genrepo -name  # prints the repository's name
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/fbcat/opm/bench/repo"
	"github.com/fbcat/opm/bench/synth"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genrepo DIR | -name")
		os.Exit(2)
	}
	o := synth.BenchRepo
	if os.Args[1] == "-name" {
		fmt.Println(o.Name())
		return
	}
	if err := os.Mkdir(os.Args[1], 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := repo.Write(context.Background(), os.Args[1], o); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: operator %s, %d templates of %d bundles, next bundle %s\n", os.Args[1], synth.RepoOperator, o.Templates, o.Bundles, o.NextVersion())
}
