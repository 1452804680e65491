package html

import (
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

// countWriter counts what it is given and keeps nothing.
type countWriter struct{ files, bytes atomic.Int64 }

func (w *countWriter) Write(_ string, data []byte) error {
	w.files.Add(1)
	w.bytes.Add(int64(len(data)))
	return nil
}

// peakHeap samples the bytes of live and not yet swept heap objects until
// stopped, and returns the largest value seen: the peak memory of what runs
// meanwhile, to within the sampling period.
func peakHeap() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	var peak atomic.Uint64
	peak.Store(read())
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				if v := read(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	return func() uint64 { close(quit); <-done; return peak.Load() }
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
			stop := peakHeap()
			b.ResetTimer()
			for b.Loop() {
				if err := r.RenderTree(w, f.site, tree, f.outlines); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(stop())/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(w.bytes.Load())/float64(int64(n)*int64(b.N)), "bytes/node")
		})
	}
}
