package validate_test

import (
	"context"
	"os"
	"testing"

	"github.com/fbcat/opm/internal/synth"
	"github.com/fbcat/opm/validate"
)

func BenchmarkValidate(b *testing.B) {
	fsys := os.DirFS(synth.BenchmarkCatalog(b))
	for b.Loop() {
		res, err := validate.Validate(context.Background(), fsys, validate.Options{})
		if err != nil || !res.Passed() {
			b.Fatal(err, res)
		}
	}
}
