package progress

import (
	"sync"
	"time"

	"github.com/curex/curex/exporter/pace"
)

// tally is what both displays (Lines, Records) keep of a run: the trees
// planned and done, when the run and the last report began, and the
// limiter that estimates the time left. Its methods are called with mu
// held.
type tally struct {
	mu      sync.Mutex
	total   int
	done    int
	last    time.Time
	start   time.Time
	limiter *pace.Limiter
}

// plan starts the count of trees under limiter l.
func (t *tally) plan(trees int, l *pace.Limiter) {
	t.total, t.limiter, t.start = trees, l, time.Now()
}

// step counts one tree done and reports whether a progress report is due:
// always when force is set or for the last tree, else at most once per
// every. It returns the time it counted at.
func (t *tally) step(every time.Duration, force bool) (now time.Time, due bool) {
	t.done++
	now = time.Now()
	if !force && t.done != t.total && now.Sub(t.last) < every {
		return now, false
	}
	t.last = now
	return now, true
}

// eta is the limiter's estimate of the time the trees left take.
func (t *tally) eta() time.Duration {
	if t.limiter == nil {
		return 0
	}
	return t.limiter.ETA(t.total - t.done)
}

// spell returns the message of a failed tree's error, through describe
// when set (the CLI names a setting as the user gave it).
func spell(describe func(error) string, err error) string {
	if describe != nil {
		return describe(err)
	}
	return err.Error()
}
