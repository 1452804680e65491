package markdown

import (
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/internal/testtrees"
)

// countWriter counts what it is given and keeps nothing.
type countWriter struct{ files, bytes atomic.Int64 }

func (w *countWriter) Write(_ string, data []byte) error {
	w.files.Add(1)
	w.bytes.Add(int64(len(data)))
	return nil
}

// BenchmarkWrite writes the Markdown bundle and its zip of synthetic
// curricula of 1k, 10k and 100k nodes, fetched once through the sandbox,
// and reports nodes/s, output bytes per node and the heap (input, peak).
func BenchmarkWrite(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run("nodes="+strconv.Itoa(n), func(b *testing.B) {
			set := testtrees.Synthetic(b, "curricula=1,variants=0,locales=1,depth=4,nodes="+strconv.Itoa(n))
			tr := set.Trees[0].PublishedOnly()
			count := tr.Count()
			w := &countWriter{}
			if _, err := Write(w, tr, Options{}); err != nil {
				b.Fatal(err)
			}
			perRun := w.bytes.Load()
			b.SetBytes(perRun)
			b.ReportAllocs()
			heap := testtrees.MeasureHeap()
			b.ResetTimer()
			for b.Loop() {
				if _, err := Write(&countWriter{}, tr, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			heap.Report(b)
			b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(perRun)/float64(count), "bytes/node")
		})
	}
}
