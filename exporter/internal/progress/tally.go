package progress

import (
	"sync"
	"time"

	"github.com/curex/curex/exporter/internal/pacer"
)

// tally is what both displays (Lines, Records) keep of a run: the trees
// planned and done, the requests planned, when the run and the last
// report began, and the limiter that estimates the time the rate limits
// take. Its methods are called with mu held.
type tally struct {
	// Now is the clock the displays read; nil means time.Now. Tests
	// inject one, so that no estimate depends on the machine's speed.
	Now func() time.Time

	mu       sync.Mutex
	total    int
	done     int
	requests int // planned, for all the trees
	last     time.Time
	start    time.Time
	limiter  *pacer.Limiter
}

// now reads the clock.
func (t *tally) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// plan starts the count of trees, which need requests in all, under
// limiter l.
func (t *tally) plan(trees, requests int, l *pacer.Limiter) {
	t.total, t.requests, t.limiter, t.start = trees, requests, l, t.now()
}

// step counts one tree done and reports whether a progress report is due:
// always when force is set or for the last tree, else at most once per
// every. It returns the time it counted at.
func (t *tally) step(every time.Duration, force bool) (now time.Time, due bool) {
	t.done++
	now = t.now()
	if !force && t.done != t.total && now.Sub(t.last) < every {
		return now, false
	}
	t.last = now
	return now, true
}

// eta estimates the time the trees left take, at now: the longer of what
// the rate limits allow for their share of the planned requests (the
// limiter's schedule, which knows nothing of the answers' latency) and
// what the trees done so far took each (the latency and throughput seen).
// Against a slow API with generous limits the limits alone say "0s".
func (t *tally) eta(now time.Time) time.Duration {
	left := t.total - t.done
	if left <= 0 {
		return 0
	}
	var paced time.Duration
	if t.limiter != nil {
		need := left
		if t.total > 0 && t.requests > t.total {
			need = (left*t.requests + t.total - 1) / t.total
		}
		paced = t.limiter.ETA(need)
	}
	if t.done == 0 {
		return paced
	}
	seen := time.Duration(float64(now.Sub(t.start)) / float64(t.done) * float64(left))
	return max(paced, seen)
}

// spell returns the message of a failed tree's error, through describe
// when set (the CLI names a setting as the user gave it).
func spell(describe func(error) string, err error) string {
	if describe != nil {
		return describe(err)
	}
	return err.Error()
}
