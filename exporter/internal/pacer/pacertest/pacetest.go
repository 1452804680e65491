// Package pacetest holds what the tests of request pacing share: limits
// from a string, the greedy minimum schedule, and the busiest window of a
// schedule counted by brute force. Only tests import it, so none of it
// ships in the curex binary.
package pacertest

import (
	"testing"
	"time"

	"github.com/curex/curex/exporter/ratelimit"
)

// Limits parses s as ratelimit.Parse does, failing t on an error.
func Limits(t testing.TB, s string) ratelimit.Limits {
	t.Helper()
	ls, err := ratelimit.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// Greedy returns the send times, from 0, of k requests sent as early as
// ls allows: request i goes when the Count-th request before it leaves
// each window. It is the theoretical minimum schedule, computed without
// the ratelimit package.
func Greedy(k int, ls ratelimit.Limits) []time.Duration {
	ts := make([]time.Duration, k)
	for i := range ts {
		var t time.Duration
		if i > 0 {
			t = ts[i-1]
		}
		for _, l := range ls {
			if i >= l.Count && ts[i-l.Count]+l.Window > t {
				t = ts[i-l.Count] + l.Window
			}
		}
		ts[i] = t
	}
	return ts
}

// Peak returns the most requests of ts (sorted) in any window (t-w, t],
// by brute force.
func Peak(ts []time.Time, w time.Duration) int {
	peak := 0
	for i, end := range ts {
		n := 0
		for _, t := range ts[:i+1] {
			if t.After(end.Add(-w)) {
				n++
			}
		}
		for _, t := range ts[i+1:] {
			if t.Equal(end) {
				n++
			}
		}
		peak = max(peak, n)
	}
	return peak
}
