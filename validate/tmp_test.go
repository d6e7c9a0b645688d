package validate

import (
	"context"
	"os"
	"testing"
)

func BenchmarkConformance(b *testing.B) {
	for i := 0; i < b.N; i++ {
		res, err := Validate(context.Background(), os.DirFS("/work/shared/conformance/catalogs"), Options{Concurrency: 1})
		if err != nil || !res.Passed() {
			b.Fatal(err, res.Problems)
		}
	}
}
