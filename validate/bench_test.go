package validate_test

import (
	"context"
	"os"
	"testing"

	"github.com/fbcat/opm/internal/synth"
	"github.com/fbcat/opm/validate"
)

func BenchmarkValidate(b *testing.B) { benchmarkValidate(b, synth.BenchmarkCatalog(b)) }

// BenchmarkValidateLarge validates the large synthetic catalog.
func BenchmarkValidateLarge(b *testing.B) { benchmarkValidate(b, synth.BenchmarkLargeCatalog(b)) }

func benchmarkValidate(b *testing.B, dir string) {
	fsys := os.DirFS(dir)
	for b.Loop() {
		res, err := validate.Validate(context.Background(), fsys, validate.Options{})
		if err != nil || !res.Passed() {
			b.Fatal(err, res)
		}
	}
}
