package handbook

import (
	"fmt"
	"testing"

	"github.com/curex/curex/exporter/internal/testtrees"
)

// BenchmarkRender renders the handbook of a synthetic tree of 1k, 10k and
// 100k nodes and reports nodes per second and the heap (input, peak).
func BenchmarkRender(b *testing.B) {
	r := newRenderer(b, Options{})
	for _, n := range []int{1_000, 10_000, 100_000} {
		set := testtrees.Synthetic(b, fmt.Sprintf("curricula=1,variants=0,locales=1,nodes=%d", n))
		tr := set.Trees[0].PublishedOnly()
		nodes := tr.Count()
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var size int
			heap := testtrees.MeasureHeap()
			for b.Loop() {
				out, err := r.Render(tr, Info{LocaleName: "English", ContentDate: tr.ResolvedAt})
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			b.StopTimer()
			heap.Report(b)
			b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(size), "bytes/op-output")
		})
	}
}
