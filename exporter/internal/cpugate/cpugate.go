// Package cpugate bounds how many goroutines of a run render at once, and
// keeps a processor free for the fetch while requests are paced.
//
// Go has no goroutine priorities. When rendering takes every processor,
// the goroutines that send a request the moment the limiter allows it,
// and that read the answer the limiter waits for, queue behind pages: on
// a two-core machine that stretched an export's request schedule by 10 %
// and more (BenchmarkExportScheduleLong). A Gate with one unit reserved
// leaves that processor to them.
package cpugate

import (
	"context"
	"sync"

	"golang.org/x/sync/semaphore"
)

// Gate is a counting gate for rendering work. A nil *Gate lets everything
// through.
type Gate struct {
	n   int64
	sem *semaphore.Weighted

	mu       sync.Mutex
	reserved bool
}

// New returns a gate that lets n goroutines in at once (at least 1).
func New(n int) *Gate {
	n = max(n, 1)
	return &Gate{n: int64(n), sem: semaphore.NewWeighted(int64(n))}
}

// Acquire waits for a unit of g.
func (g *Gate) Acquire() {
	if g == nil {
		return
	}
	_ = g.sem.Acquire(context.Background(), 1) // never fails without a deadline
}

// TryAcquire takes a unit of g if one is free now, and reports whether
// it did (always, on a nil gate).
func (g *Gate) TryAcquire() bool {
	if g == nil {
		return true
	}
	return g.sem.TryAcquire(1)
}

// Release returns the unit Acquire took.
func (g *Gate) Release() {
	if g == nil {
		return
	}
	g.sem.Release(1)
}

// Reserve holds one unit of a gate of two or more until the returned
// function is called, so that at most n−1 goroutines render. It does
// nothing on a nil gate, a gate of one unit, or a gate already reserved.
// The returned function may be called more than once.
func (g *Gate) Reserve() (release func()) {
	if g == nil || g.n < 2 {
		return func() {}
	}
	g.mu.Lock()
	if g.reserved {
		g.mu.Unlock()
		return func() {}
	}
	g.reserved = true
	g.mu.Unlock()
	g.Acquire()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			g.reserved = false
			g.mu.Unlock()
			g.Release()
		})
	}
}
