package exporter_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// recorder notes when each request leaves.
type recorder struct {
	base  http.RoundTripper
	mu    sync.Mutex
	sends []time.Time
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.sends = append(r.sends, time.Now())
	r.mu.Unlock()
	return r.base.RoundTrip(req)
}

// greedyMinimum is the shortest span in which n requests fit the limits:
// each sent at the earliest moment the sliding windows allow.
func greedyMinimum(ls ratelimit.Limits, n int) time.Duration {
	log := ratelimit.NewLog(ls)
	start := time.Unix(0, 0)
	t := start
	for range n {
		t = log.Next(t)
		log.Add(t)
	}
	return t.Sub(start)
}

// busiest returns, for each limit, the most requests seen in any window.
func busiest(ls ratelimit.Limits, sends []time.Time) []int {
	out := make([]int, len(ls))
	for i, l := range ls {
		for a := range sends {
			n := 0
			for b := a; b < len(sends) && sends[b].Sub(sends[a]) < l.Window; b++ {
				n++
			}
			out[i] = max(out[i], n)
		}
	}
	return out
}

// BenchmarkExportSchedule exports a synthetic organization (10 curricula,
// 2 variants each, 3 locales: 90 trees, about 110 requests) from the sandbox over
// real loopback sockets with the same scaled limits on both sides and 20 ms
// of latency, and reports the request span against the greedy minimum for
// the same number of requests, the 429s earned and the busiest window.
// The run lasts about 5 s, less than the 6 s window can fill in: see
// BenchmarkExportScheduleLong.
//
// Every default format is rendered while the requests go, into an
// in-memory file system: on this project's machines (ext4 without a
// journal) files created within minutes of many deletions, such as the
// previous iteration's clean-up, cost much more system time, which blurred
// the schedule by up to 30 % from one run to the next. The cache is on
// disk. BenchmarkNightlyEndToEnd writes its output to disk.
func BenchmarkExportSchedule(b *testing.B) {
	exportSchedule(b, dataset.SyntheticOptions{Curricula: 10, Variants: 2, Locales: 3, Nodes: 60, Depth: 3, Seed: 1})
}

// BenchmarkExportScheduleLong is BenchmarkExportSchedule with 10 curricula
// × 3 trees × 12 locales (360 trees, about 380 requests): about 19 s of
// requests, so that every window of both limits fills.
func BenchmarkExportScheduleLong(b *testing.B) {
	exportSchedule(b, dataset.SyntheticOptions{Curricula: 10, Variants: 2, Locales: 12, Nodes: 60, Depth: 3, Seed: 1})
}

// exportSchedule runs the export of BenchmarkExportSchedule on the
// organization o. It fails on a 429, an incomplete export, or a window
// holding more than its limit.
func exportSchedule(b *testing.B, o dataset.SyntheticOptions) {
	limits, err := ratelimit.Parse("20/1s,120/6s")
	if err != nil {
		b.Fatal(err)
	}
	ds := dataset.Synthetic(o)
	for b.Loop() {
		h, err := sandbox.New(ds, sandbox.Options{Limits: limits, Latency: sandbox.Latency{Base: 20 * time.Millisecond}})
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(h)
		rec := &recorder{base: http.DefaultTransport}
		sum, err := exporter.Run(context.Background(), exporter.Config{
			BaseURL: srv.URL, Token: dataset.SyntheticToken, Output: filepath.Join(b.TempDir(), "out"),
			CacheDir: b.TempDir(), Limits: limits, Concurrency: 4, Transport: rec, Fs: afero.NewMemMapFs(),
		})
		srv.Close()
		if err != nil {
			b.Fatal(err)
		}
		if sum.Partial() {
			b.Fatalf("failures: %v", sum.Failures)
		}
		if sum.Stats.RateLimited != 0 {
			b.Fatalf("earned %d × 429", sum.Stats.RateLimited)
		}
		n := len(rec.sends)
		span := rec.sends[n-1].Sub(rec.sends[0])
		minimum := greedyMinimum(limits, n)
		use := busiest(limits, rec.sends)
		b.ReportMetric(float64(n), "requests")
		b.ReportMetric(float64(sum.Stats.RateLimited), "429s")
		b.ReportMetric(span.Seconds(), "span-s")
		b.ReportMetric(minimum.Seconds(), "min-s")
		b.ReportMetric(span.Seconds()/minimum.Seconds(), "span/min")
		for i, l := range limits {
			if use[i] > l.Count {
				b.Fatalf("%v: %d requests left in one window", l, use[i])
			}
			b.ReportMetric(float64(use[i])/float64(l.Count), "busiest-"+l.String())
		}
	}
}
