package html

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/internal/testtrees"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

// countWriter counts what it is given and keeps nothing.
type countWriter struct{ files, bytes atomic.Int64 }

func (w *countWriter) Write(_ string, data []byte) error {
	w.files.Add(1)
	w.bytes.Add(int64(len(data)))
	return nil
}

// BenchmarkRenderTree renders one synthetic tree (a translated locale of a
// curriculum with two locales) of 1k, 10k and 100k nodes, and reports
// throughput, output bytes per node and the peak heap while rendering
// (the tree itself included).
func BenchmarkRenderTree(b *testing.B) {
	for _, nodes := range []int{1000, 10000, 100000} {
		b.Run(strconv.Itoa(nodes)+"nodes", func(b *testing.B) {
			ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 2, Nodes: nodes, Depth: 3, Seed: 1})
			f := fromDataset(b, ds, false)
			tree := f.trees[1] // the second locale: translated and fallback nodes
			n := tree.Count()
			r, err := New(Options{})
			if err != nil {
				b.Fatal(err)
			}
			w := &countWriter{}
			b.ReportAllocs()
			heap := testtrees.MeasureHeap()
			b.ResetTimer()
			for b.Loop() {
				if err := r.RenderTree(context.Background(), w, f.site, tree, f.outlines); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			heap.Report(b)
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(w.bytes.Load())/float64(int64(n)*int64(b.N)), "bytes/node")
		})
	}
}
