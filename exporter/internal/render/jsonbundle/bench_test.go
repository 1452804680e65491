package jsonbundle

import (
	"strconv"
	"testing"

	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
	"github.com/curex/curex/exporter/internal/testtrees"
)

// BenchmarkEncode encodes synthetic trees of 1k, 10k and 100k nodes shaped
// like real courses (four attributes a node, HTML in the description) and
// reports nodes/s and bytes/node besides the usual figures.
func BenchmarkEncode(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		tr := synthetic(n)
		b.Run("nodes="+strconv.Itoa(n), func(b *testing.B) {
			out, err := Encode(tr)
			if err != nil {
				b.Fatal(err)
			}
			size := len(out)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			out = nil
			heap := testtrees.MeasureHeap()
			b.ResetTimer()
			for b.Loop() {
				if _, err := Encode(tr); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			heap.Report(b)
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(size)/float64(n), "bytes/node")
		})
	}
}

// BenchmarkValidate measures the Validator on the 1k-node bundle, for
// tests that validate what they produce.
func BenchmarkValidate(b *testing.B) {
	out, err := Encode(synthetic(1_000))
	if err != nil {
		b.Fatal(err)
	}
	v, err := treeschema.NewValidator()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		if err := v.Validate(out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1_000*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}
