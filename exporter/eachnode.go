package exporter

import (
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/internal/cpugate"
)

// nodesPerWorker is how many calls of work per node are worth a goroutine
// of each's own: a small tree is done on the caller's.
const nodesPerWorker = 16

// each calls fn(i) for every i in [0, n): on the calling goroutine, and
// on as many more as gate has units free now (a nil gate: as many as
// there are processors), at most one per nodesPerWorker calls and one per
// processor in all, each taking the next i. It stops at the first error
// and returns it. The work of a tree before its formats render (counting
// its formulas, finding its images) is spread so, and a first build
// converts its formulas on every processor.
func each(gate *cpugate.Gate, n int, fn func(i int) error) error {
	var next atomic.Int64
	var failed atomic.Bool
	work := func() error {
		for i := next.Add(1) - 1; i < int64(n) && !failed.Load(); i = next.Add(1) - 1 {
			if err := fn(int(i)); err != nil {
				failed.Store(true)
				return err
			}
		}
		return nil
	}
	var g errgroup.Group
	for range min(runtime.GOMAXPROCS(0), n/nodesPerWorker) - 1 {
		if !gate.TryAcquire() {
			break
		}
		g.Go(func() error {
			defer gate.Release()
			return work()
		})
	}
	err := work()
	if werr := g.Wait(); err == nil {
		err = werr
	}
	return err
}
