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
	base uint64
	peak atomic.Uint64
	quit chan struct{}
	done chan struct{}
}

// heapBytes reads the bytes of heap objects, live or not yet swept.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// MeasureHeap collects garbage, notes the heap in use (what the benchmark
// holds before it starts: its input), then samples the heap every 2 ms
// until Report. The peak is right to within the sampling period.
func MeasureHeap() *HeapMeter {
	runtime.GC()
	m := &HeapMeter{base: heapBytes(), quit: make(chan struct{}), done: make(chan struct{})}
	m.peak.Store(m.base)
	go func() {
		defer close(m.done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-m.quit:
				return
			case <-tick.C:
				if v := heapBytes(); v > m.peak.Load() {
					m.peak.Store(v)
				}
			}
		}
	}()
	return m
}

// Report stops sampling and reports "input-MB" (the heap before the
// benchmark ran, its input included) and "peak-MB" (the largest heap seen).
func (m *HeapMeter) Report(b *testing.B) {
	close(m.quit)
	<-m.done
	b.ReportMetric(float64(m.base)/(1<<20), "input-MB")
	b.ReportMetric(float64(m.peak.Load())/(1<<20), "peak-MB")
}
