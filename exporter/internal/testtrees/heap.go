package testtrees

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

// HeapMeter samples the heap while a benchmark runs, for its peak memory.
type HeapMeter struct {
	base     uint64
	peak     atomic.Uint64
	baseLive uint64
	peakLive atomic.Uint64
	quit     chan struct{}
	done     chan struct{}
}

// heapBytes reads the bytes of heap objects, live or not yet swept, and
// the bytes the last garbage collection found live.
func heapBytes() (objects, live uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// MeasureHeap collects garbage, notes the heap in use (what the benchmark
// holds before it starts: its input), then samples the heap every 2 ms
// until Report. The peak is right to within the sampling period.
func MeasureHeap() *HeapMeter {
	runtime.GC()
	m := &HeapMeter{quit: make(chan struct{}), done: make(chan struct{})}
	m.base, m.baseLive = heapBytes()
	m.peak.Store(m.base)
	m.peakLive.Store(m.baseLive)
	go func() {
		defer close(m.done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-m.quit:
				return
			case <-tick.C:
				v, live := heapBytes()
				if v > m.peak.Load() {
					m.peak.Store(v)
				}
				if live > m.peakLive.Load() {
					m.peakLive.Store(live)
				}
			}
		}
	}()
	return m
}

// Report stops sampling and reports "input-MB" (the heap before the
// benchmark ran, its input included), "peak-MB" (the largest heap seen,
// garbage not yet swept included: what the process needs with the
// default GOGC) and "live-MB" (the most the garbage collector found live
// beyond the input: what the work itself holds).
func (m *HeapMeter) Report(b *testing.B) {
	close(m.quit)
	<-m.done
	b.ReportMetric(float64(m.base)/(1<<20), "input-MB")
	b.ReportMetric(float64(m.peak.Load())/(1<<20), "peak-MB")
	b.ReportMetric(float64(m.peakLive.Load()-min(m.baseLive, m.peakLive.Load()))/(1<<20), "live-MB")
}
