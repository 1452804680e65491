package exporter

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/internal/cpugate"
)

// TestEach calls fn once for every index, whatever the gate has free,
// and stops at an error.
func TestEach(t *testing.T) {
	full := cpugate.New(2)
	full.Acquire()
	full.Acquire()
	for _, tt := range []struct {
		name string
		gate *cpugate.Gate
		n    int
	}{
		{"none", cpugate.New(2), 0},
		{"fewer than a worker's", cpugate.New(2), nodesPerWorker - 1},
		{"many, a free gate", cpugate.New(4), 50 * nodesPerWorker},
		{"many, no gate", nil, 50 * nodesPerWorker},
		{"many, a gate with no unit free", full, 50 * nodesPerWorker},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seen := make([]atomic.Int32, tt.n)
			if err := each(tt.gate, tt.n, func(i int) error {
				seen[i].Add(1)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("index %d called %d times", i, c)
				}
			}
		})
	}
	if full.TryAcquire() {
		t.Error("each gave back a unit it did not take")
	}
	free := cpugate.New(3)
	if err := each(free, 50*nodesPerWorker, func(int) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if !free.TryAcquire() {
			t.Fatal("each kept a unit of the gate")
		}
	}
	stop := errors.New("stop")
	var calls atomic.Int32
	err := each(cpugate.New(2), 1000*nodesPerWorker, func(i int) error {
		calls.Add(1)
		if i == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Errorf("each = %v, want the error of index 10", err)
	}
	if c := calls.Load(); c >= 1000*nodesPerWorker {
		t.Errorf("%d calls after the error: each did not stop", c)
	}
}
