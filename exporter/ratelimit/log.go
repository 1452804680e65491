package ratelimit

import (
	"slices"
	"time"
)

// Log is a sliding-window log of request times checked against a list of
// limits. A request at time t fits a limit when fewer than Count recorded
// requests lie in the window (t-Window, t]. A Log is not safe for concurrent
// use; callers guard it with their own lock.
//
// The zero Log has no limits and allows everything.
type Log struct {
	limits Limits
	keep   int           // most entries any limit needs to look back at
	span   time.Duration // longest window
	times  []time.Time   // sorted, oldest first
}

// NewLog returns an empty log that enforces every limit in ls.
func NewLog(ls Limits) *Log {
	l := &Log{limits: slices.Clone(ls)}
	for _, lim := range ls {
		l.keep = max(l.keep, lim.Count)
		l.span = max(l.span, lim.Window)
	}
	return l
}

// Limits returns the limits the log enforces.
func (l *Log) Limits() Limits { return slices.Clone(l.limits) }

// Next returns the earliest time, not before now, at which one more request
// fits every limit. Recorded times must not lie after now.
func (l *Log) Next(now time.Time) time.Time {
	next := now
	for _, lim := range l.limits {
		if len(l.times) < lim.Count {
			continue
		}
		// The Count-th most recent request must leave the window first.
		if t := l.times[len(l.times)-lim.Count].Add(lim.Window); t.After(next) {
			next = t
		}
	}
	return next
}

// Allow records a request at now and reports true when it fits every limit.
// Otherwise it records nothing and returns how long until one would fit.
func (l *Log) Allow(now time.Time) (bool, time.Duration) {
	if next := l.Next(now); next.After(now) {
		return false, next.Sub(now)
	}
	l.Add(now)
	return true, 0
}

// Add records a request at t, whether or not it fits; times must be added in
// non-decreasing order.
func (l *Log) Add(t time.Time) {
	if len(l.limits) == 0 {
		return
	}
	l.times = append(l.times, t)
	l.prune(t)
}

// prune drops entries that no limit can see any more, keeping memory bounded
// by the largest count.
func (l *Log) prune(now time.Time) {
	drop := 0
	if n := len(l.times) - l.keep; n > 0 {
		drop = n
	}
	for drop < len(l.times) && !l.times[drop].After(now.Add(-l.span)) {
		drop++
	}
	if drop > 0 {
		l.times = slices.Delete(l.times, 0, drop)
	}
}

// Usage reports, for each limit in order, how many recorded requests lie in
// its window ending at now.
func (l *Log) Usage(now time.Time) []int {
	out := make([]int, len(l.limits))
	for i, lim := range l.limits {
		start := now.Add(-lim.Window)
		// times is sorted: find the first entry inside (start, now].
		j, _ := slices.BinarySearchFunc(l.times, start, func(e, t time.Time) int {
			if e.After(t) {
				return 1
			}
			return -1
		})
		out[i] = len(l.times) - j
	}
	return out
}
