package ratelimit

import (
	"slices"
	"sort"
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
func (l *Log) Next(now time.Time) time.Time { return l.NextFor(now, l.limits) }

// NextFor is Next under the limits ls instead of the log's own, judged by
// the same recorded requests. A caller that paces under limits it lowers and
// raises again (or under stretched windows) keeps one log and asks it with
// the limits of the moment. The log remembers as many requests, and as far
// back, as its own limits need, so ls must not ask for more: no count above
// the log's largest count and no window longer than its longest window.
// Counts below 1 count as 1. Recorded times must not lie after now.
func (l *Log) NextFor(now time.Time, ls Limits) time.Time {
	next := now
	for _, lim := range ls {
		count := max(lim.Count, 1)
		if len(l.times) < count {
			continue
		}
		// The Count-th most recent request must leave the window first.
		if t := l.times[len(l.times)-count].Add(lim.Window); t.After(next) {
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
// by the largest count. It re-slices instead of moving the kept entries, so
// that an Add costs O(log n) even with a count in the thousands; append
// copies the live entries into a fresh array when the old one is used up.
func (l *Log) prune(now time.Time) {
	drop := max(len(l.times)-l.keep, 0)
	// times is sorted: skip everything at or before now-span.
	cutoff := now.Add(-l.span)
	drop += sort.Search(len(l.times)-drop, func(i int) bool { return l.times[drop+i].After(cutoff) })
	if drop > 0 {
		l.times = l.times[drop:]
	}
}

// Usage reports, for each limit in order, how many recorded requests lie in
// its window ending at now.
func (l *Log) Usage(now time.Time) []int { return l.UsageFor(now, l.limits) }

// UsageFor is Usage for the windows of ls instead of the log's own; the
// windows must not be longer than the log's longest (see NextFor). Recorded
// times after now are not counted.
func (l *Log) UsageFor(now time.Time, ls Limits) []int {
	out := make([]int, len(ls))
	// times is sorted: end is the first entry after now.
	end := sort.Search(len(l.times), func(i int) bool { return l.times[i].After(now) })
	for i, lim := range ls {
		start := now.Add(-lim.Window)
		// The first entry inside (start, now].
		j := sort.Search(end, func(i int) bool { return l.times[i].After(start) })
		out[i] = end - j
	}
	return out
}

// Clone returns an independent copy of l, for what-if schedules such as
// an estimate of how long the next thousand requests take.
func (l *Log) Clone() *Log {
	c := *l
	c.limits = slices.Clone(l.limits)
	c.times = slices.Clone(l.times)
	return &c
}

// Move re-records one request recorded at from as made at to, keeping the
// log sorted, and reports whether an entry at from was found. A client uses
// it to count a request from when its answer arrived: the server counted it
// at some moment in between, so the later time is the safe one.
func (l *Log) Move(from, to time.Time) bool {
	i := sort.Search(len(l.times), func(i int) bool { return !l.times[i].Before(from) })
	if i == len(l.times) || !l.times[i].Equal(from) {
		return false
	}
	l.times = slices.Delete(l.times, i, i+1)
	j := sort.Search(len(l.times), func(k int) bool { return l.times[k].After(to) })
	l.times = slices.Insert(l.times, j, to)
	return true
}
