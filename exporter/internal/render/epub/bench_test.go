package epub

import (
	"fmt"
	"testing"

	"github.com/curex/curex/exporter/internal/render/handbook"
	"github.com/curex/curex/exporter/internal/testtrees"
)

// BenchmarkRender renders the book of a synthetic tree of 2k and 10k
// nodes, and for comparison its handbook, and reports nodes per second.
func BenchmarkRender(b *testing.B) {
	r := New(Options{})
	hb, err := handbook.New(handbook.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{2_000, 10_000} {
		set := testtrees.Synthetic(b, fmt.Sprintf("curricula=1,variants=0,locales=1,nodes=%d", n))
		tr := set.Trees[0].PublishedOnly()
		nodes := tr.Count()
		b.Run(fmt.Sprintf("format=epub/nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				out, err := r.Render(tr, Info{LocaleName: "English", ContentDate: tr.ResolvedAt})
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(size), "bytes/op-output")
		})
		b.Run(fmt.Sprintf("format=handbook/nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := hb.Render(tr, handbook.Info{LocaleName: "English", ContentDate: tr.ResolvedAt}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
