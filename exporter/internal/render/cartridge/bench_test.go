package cartridge

import (
	"fmt"
	"testing"

	rendering "github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/testtrees"
)

// BenchmarkBuild builds the cartridge of a synthetic tree of 2k and 10k
// nodes, with web links, and reports nodes per second and the archive's
// size.
func BenchmarkBuild(b *testing.B) {
	r := New(Options{SiteURL: testSite})
	for _, n := range []int{2_000, 10_000} {
		set := testtrees.Synthetic(b, fmt.Sprintf("curricula=1,variants=0,locales=1,nodes=%d", n))
		tr := &rendering.Tree{Tree: set.Trees[0].PublishedOnly()}
		nodes := tr.Count()
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				out, err := r.Build(tr)
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(size), "bytes/op-output")
		})
	}
}
