package exporter_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// BenchmarkNightlyEndToEnd is a nightly-shaped export in real time: the
// sandbox over loopback sockets serves a synthetic organization of 50
// curricula × 3 trees (base and two variants) × 3 locales = 450 trees of 20
// nodes, with faults on (3 % 500, 2 % 503 with Retry-After 1 s, 2 % bodies
// cut short) and 20 ms of latency, under scaled limits on both sides
// (15/1s,300/30s: about 45 s of requests). curex exports the website and
// the JSON bundles. It reports the whole run's time against the greedy
// minimum for the requests it actually sent (retries included), and how
// long the run went on after its last request. It fails on a 429, a tree
// not exported, or a window holding more than its limit.
func BenchmarkNightlyEndToEnd(b *testing.B) {
	limits, err := ratelimit.Parse("15/1s,300/30s")
	if err != nil {
		b.Fatal(err)
	}
	faults, err := sandbox.ParseFaults("500=0.03,503=0.02:1s,cut=0.02")
	if err != nil {
		b.Fatal(err)
	}
	const trees = 450
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 50, Variants: 2, Locales: 3, Nodes: 20, Depth: 3, Seed: 2})
	for b.Loop() {
		h, err := sandbox.New(ds, sandbox.Options{Limits: limits, Faults: faults, Seed: 1, Latency: sandbox.Latency{Base: 20 * time.Millisecond}})
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(h)
		rec := &recorder{base: http.DefaultTransport}
		start := time.Now()
		sum, err := exporter.Run(context.Background(), exporter.Config{
			BaseURL: srv.URL, Token: dataset.SyntheticToken, Output: filepath.Join(b.TempDir(), "out"),
			CacheDir: b.TempDir(), Limits: limits, Formats: []string{"html", "json"}, Transport: rec,
		})
		total := time.Since(start)
		srv.Close()
		if err != nil {
			b.Fatal(err)
		}
		if sum.Partial() || sum.Written != trees {
			b.Fatalf("%d of %d trees written; failures: %v", sum.Written, trees, sum.Failures)
		}
		if sum.Stats.RateLimited != 0 {
			b.Fatalf("earned %d × 429", sum.Stats.RateLimited)
		}
		n := len(rec.sends)
		minimum := greedyMinimum(limits, n)
		span := rec.sends[n-1].Sub(rec.sends[0])
		b.ReportMetric(float64(n), "requests")
		b.ReportMetric(float64(sum.Stats.Retries), "retries")
		b.ReportMetric(float64(sum.Stats.ServerErrors), "5xx")
		b.ReportMetric(float64(sum.Stats.CutShort+sum.Stats.TransportErrors), "cut")
		b.ReportMetric(total.Seconds(), "total-s")
		b.ReportMetric(minimum.Seconds(), "min-s")
		b.ReportMetric(total.Seconds()/minimum.Seconds(), "total/min")
		b.ReportMetric(span.Seconds()/minimum.Seconds(), "span/min")
		b.ReportMetric(start.Add(total).Sub(rec.sends[n-1]).Seconds(), "after-last-request-s")
		use := busiest(limits, rec.sends)
		for i, l := range limits {
			if use[i] > l.Count {
				b.Fatalf("%v: %d requests left in one window", l, use[i])
			}
			b.ReportMetric(float64(use[i])/float64(l.Count), "busiest-"+l.String())
		}
	}
}
