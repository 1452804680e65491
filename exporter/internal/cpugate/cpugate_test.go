package cpugate

import (
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// inside runs workers goroutines that each enter g once, and returns the
// most that were inside at the same time. Each goroutine stays inside
// until all that can enter have (synctest.Wait), so the count is exact.
func inside(t *testing.T, g *Gate, workers int) int {
	t.Helper()
	var cur, most atomic.Int32
	var wg sync.WaitGroup
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		for range workers {
			wg.Go(func() {
				g.Acquire()
				defer g.Release()
				n := cur.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				<-gate
				cur.Add(-1)
			})
		}
		synctest.Wait() // everyone who can is inside; the rest wait on g
		close(gate)
		wg.Wait()
	})
	return int(most.Load())
}

func TestGate(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		reserve bool
		want    int
	}{
		{"one unit", 1, false, 1},
		{"two units", 2, false, 2},
		{"four units", 4, false, 4},
		{"two units, one reserved", 2, true, 1},
		{"four units, one reserved", 4, true, 3},
		{"one unit is never reserved", 1, true, 1},
		{"zero counts as one", 0, false, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := New(tc.n)
			release := func() {}
			if tc.reserve {
				release = g.Reserve()
			}
			if got := inside(t, g, 8); got != tc.want {
				t.Errorf("%d inside at once, want %d", got, tc.want)
			}
			release()
			release() // a second call changes nothing
			if got, want := inside(t, g, 8), max(tc.n, 1); got != want {
				t.Errorf("after the reservation ends: %d inside at once, want %d", got, want)
			}
		})
	}
}

func TestReserveTwiceHoldsOneUnit(t *testing.T) {
	g := New(3)
	r1 := g.Reserve()
	r2 := g.Reserve() // already reserved: holds nothing
	if got := inside(t, g, 8); got != 2 {
		t.Errorf("%d inside at once, want 2", got)
	}
	r2()
	if got := inside(t, g, 8); got != 2 {
		t.Errorf("after the second release func: %d inside, want 2 (the first holds)", got)
	}
	r1()
	if got := inside(t, g, 8); got != 3 {
		t.Errorf("after the reservation ends: %d inside, want 3", got)
	}
}

func TestNilGate(t *testing.T) {
	var g *Gate
	g.Acquire()
	g.Release()
	g.Reserve()()
	if !g.TryAcquire() {
		t.Error("a nil gate refused TryAcquire")
	}
}

// TestTryAcquire takes the units that are free and no more, the reserved
// one included, and takes one again once it is released.
func TestTryAcquire(t *testing.T) {
	g := New(3)
	release := g.Reserve()
	g.Acquire()
	if !g.TryAcquire() {
		t.Fatal("the third unit is free, TryAcquire refused it")
	}
	if g.TryAcquire() {
		t.Fatal("TryAcquire took a fourth unit of three")
	}
	release()
	if !g.TryAcquire() {
		t.Fatal("the reservation ended, TryAcquire refused its unit")
	}
	for range 3 {
		g.Release()
	}
	if got := inside(t, g, 8); got != 3 {
		t.Errorf("after the releases: %d inside, want 3", got)
	}
}
