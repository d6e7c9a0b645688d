package validate_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/declcfg/declcfgtest"
	"github.com/fbcat/opm/validate"
)

func BenchmarkValidate(b *testing.B) { benchmarkValidate(b, declcfgtest.BenchmarkCatalog(b)) }

// BenchmarkValidateLarge validates the large synthetic catalog.
func BenchmarkValidateLarge(b *testing.B) { benchmarkValidate(b, declcfgtest.BenchmarkLargeCatalog(b)) }

// BenchmarkValidateReal validates the catalog $OPM_BENCH_CATALOG names.
func BenchmarkValidateReal(b *testing.B) { benchmarkValidate(b, declcfgtest.RealCatalog(b)) }

func benchmarkValidate(b *testing.B, dir string) {
	fsys := os.DirFS(dir)
	for b.Loop() {
		res, err := validate.Validate(context.Background(), fsys, validate.Options{})
		if err != nil || !res.Passed() {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkLongChannel validates a package whose one channel has n
// entries, each replacing the one before: the time per entry should not
// grow with n.
func BenchmarkLongChannel(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			fsys := fstest.MapFS{"c.json": {Data: longChannel(n)}}
			for b.Loop() {
				res, err := validate.Validate(context.Background(), fsys, validate.Options{})
				if err != nil || !res.Passed() {
					b.Fatal(err, res)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entry")
		})
	}
}

// longChannel is a catalog of one package with one channel of n entries
// and their n bundles.
func longChannel(n int) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"schema":"olm.package","name":"foo","defaultChannel":"stable"}` + "\n")
	buf.WriteString(`{"schema":"olm.channel","package":"foo","name":"stable","entries":[`)
	for i := range n {
		if i > 0 {
			fmt.Fprintf(&buf, `,{"name":"foo.v%d","replaces":"foo.v%d"}`, i, i-1)
		} else {
			buf.WriteString(`{"name":"foo.v0"}`)
		}
	}
	buf.WriteString("]}\n")
	for i := range n {
		fmt.Fprintf(&buf, `{"schema":"olm.bundle","package":"foo","name":"foo.v%d","image":"example.com/foo:%d","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.0.%d"}}]}`+"\n", i, i, i)
	}
	return buf.Bytes()
}
