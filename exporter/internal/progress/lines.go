// Package progress prints the progress of an export as lines of text:
// the plan, then the trees as they are fetched, with the requests spent
// and the time left under the rate limits.
package progress

import (
	"fmt"
	"io"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/pacer"
)

// Lines reports progress as plain lines, for logs and CI: one when the plan
// is known, then at most one per Every (and always for a failure and for
// the last tree). It is an exporter.Progress.
type Lines struct {
	// W receives the lines.
	W io.Writer
	// Every is the least time between two lines of progress.
	Every time.Duration
	// Bar redraws one line in place instead (for a terminal).
	Bar bool
	// Describe, when set, spells the error of a failed tree (the CLI
	// names a setting as the user gave it); nil prints err.Error().
	Describe func(error) string
	// FromCache words the lines for a build (curex build): the trees are
	// read from the cache, with no request and no rate limit to speak of.
	FromCache bool

	tally
}

// Planned implements exporter.Progress.
func (p *Lines) Planned(trees, requests int, l *pacer.Limiter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plan(trees, requests, l)
	if p.FromCache {
		fmt.Fprintf(p.W, "plan: %d trees, read from the cache (no API request)\n", trees)
		return
	}
	fmt.Fprintf(p.W, "plan: %d trees, %d requests, about %s under the rate limits\n", trees, requests, round(l.ETA(requests)))
}

// TreeDone implements exporter.Progress.
func (p *Lines) TreeDone(r fetch.Result, s fetch.StatsSnapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.Err != nil {
		if p.Bar {
			fmt.Fprint(p.W, "\r\033[K")
		}
		fmt.Fprintf(p.W, "failed: %s: %s\n", r.Export.Dir(), api.Printable(spell(p.Describe, r.Err)))
	}
	now, due := p.step(p.Every, p.Bar || r.Err != nil)
	if !due {
		return
	}
	eta := p.eta(now)
	line := fmt.Sprintf("%d/%d trees · %d requests (%d × 304, %d × 429, %d retries) · %s elapsed, about %s left",
		p.done, p.total, s.Requests, s.NotModified, s.RateLimited, s.Retries, round(now.Sub(p.start)), round(eta))
	if p.FromCache {
		line = fmt.Sprintf("%d/%d trees read from the cache · %s elapsed", p.done, p.total, round(now.Sub(p.start)))
	}
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
