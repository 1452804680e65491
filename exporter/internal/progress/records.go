package progress

import (
	"log/slog"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/pacer"
)

// Records reports progress as log records, for logs read by machines
// (--log-format json): a "plan" record when the plan is known, then a
// "progress" record at most once per Every (and always for the last
// tree), and a "tree failed" warning for each failure. It writes no text
// of its own, so that a JSON log stays one record per line. It is an
// exporter.Progress.
type Records struct {
	// Log receives the records.
	Log *slog.Logger
	// Every is the least time between two progress records.
	Every time.Duration
	// Describe, when set, spells the error of a failed tree (see Lines).
	Describe func(error) string

	tally
}

// Planned implements exporter.Progress.
func (p *Records) Planned(trees, requests int, l *pacer.Limiter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plan(trees, requests, l)
	p.Log.Info("plan", "trees", trees, "requests", requests, "eta_seconds", round(l.ETA(requests)).Seconds())
}

// TreeDone implements exporter.Progress.
func (p *Records) TreeDone(r fetch.Result, s fetch.StatsSnapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.Err != nil {
		p.Log.Warn("tree failed", "export", r.Export.Dir(), "error", api.Printable(spell(p.Describe, r.Err)))
	}
	now, due := p.step(p.Every, false)
	if !due {
		return
	}
	p.Log.Info("progress", "trees_done", p.done, "trees", p.total,
		"requests", s.Requests, "not_modified", s.NotModified, "rate_limited", s.RateLimited, "retries", s.Retries,
		"elapsed_seconds", round(now.Sub(p.start)).Seconds(), "eta_seconds", round(p.eta(now)).Seconds())
}
