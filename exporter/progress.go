package exporter

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/pace"
)

// Progress receives a run's progress. Implementations must be safe for
// concurrent use.
type Progress interface {
	// Planned is called once discovery is done: trees to fetch and the
	// requests they need.
	Planned(trees, requests int, l *pace.Limiter)
	// TreeDone is called as each tree is fetched (or fails).
	TreeDone(r fetch.Result, s fetch.StatsSnapshot)
}

type nopProgress struct{}

func (nopProgress) Planned(int, int, *pace.Limiter)            {}
func (nopProgress) TreeDone(fetch.Result, fetch.StatsSnapshot) {}

// Lines reports progress as plain lines, for logs and CI: one when the plan
// is known, then at most one per Every (and always for a failure and for
// the last tree).
type Lines struct {
	W     io.Writer
	Every time.Duration
	// Bar redraws one line in place instead (for a terminal).
	Bar bool

	mu      sync.Mutex
	total   int
	done    int
	last    time.Time
	limiter *pace.Limiter
	start   time.Time
}

// Planned implements Progress.
func (p *Lines) Planned(trees, requests int, l *pace.Limiter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.limiter, p.start = trees, l, time.Now()
	fmt.Fprintf(p.W, "plan: %d trees, %d requests, about %s under the rate limits\n", trees, requests, round(l.ETA(requests)))
}

// TreeDone implements Progress.
func (p *Lines) TreeDone(r fetch.Result, s fetch.StatsSnapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	now := time.Now()
	if r.Err != nil {
		if p.Bar {
			fmt.Fprint(p.W, "\r\033[K")
		}
		fmt.Fprintf(p.W, "failed: %s: %s\n", r.Export.Dir(), api.Printable(r.Err.Error()))
	}
	if !p.Bar && r.Err == nil && p.done != p.total && now.Sub(p.last) < p.Every {
		return
	}
	p.last = now
	eta := time.Duration(0)
	if p.limiter != nil {
		eta = p.limiter.ETA(p.total - p.done)
	}
	line := fmt.Sprintf("%d/%d trees · %d requests (%d × 304, %d × 429, %d retries) · %s elapsed, about %s left",
		p.done, p.total, s.Requests, s.NotModified, s.RateLimited, s.Retries, round(now.Sub(p.start)), round(eta))
	if p.Bar {
		width := 24
		filled := 0
		if p.total > 0 {
			filled = width * p.done / p.total
		}
		bar := make([]byte, width)
		for i := range bar {
			bar[i] = '-'
			if i < filled {
				bar[i] = '#'
			}
		}
		fmt.Fprintf(p.W, "\r\033[K[%s] %s", bar, line)
		if p.done == p.total {
			fmt.Fprintln(p.W)
		}
		return
	}
	fmt.Fprintln(p.W, line)
}

func round(d time.Duration) time.Duration {
	if d > time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}
