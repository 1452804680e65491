package exporter_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/testtrees"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// BenchmarkWebsiteOrganization exports the website of synthetic
// organizations of growing size (the same trees of 300 nodes, more
// curricula) with no rate limit, and reports the peak heap of the whole
// run: it should follow the largest tree, not the organization (a
// curriculum's outlines go once its pages are written; the renderer keeps
// one progress figure per tree). The sandbox runs in the same process
// with its answer cache off, so its memory does not grow with the
// organization either.
func BenchmarkWebsiteOrganization(b *testing.B) {
	for _, curricula := range []int{8, 32} {
		o := dataset.SyntheticOptions{Curricula: curricula, Variants: 1, Locales: 3, Nodes: 300, Depth: 3, Seed: 1}
		trees := curricula * 2 * 3 // the base and one variant, 3 locales
		b.Run(fmt.Sprintf("%dtrees", trees), func(b *testing.B) {
			ds := dataset.Synthetic(o)
			h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}, CacheBytes: -1})
			if err != nil {
				b.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			for b.Loop() {
				b.StopTimer()
				out := filepath.Join(b.TempDir(), "out")
				cache := b.TempDir()
				b.StartTimer()
				heap := testtrees.MeasureHeap()
				sum, err := exporter.Run(context.Background(), exporter.Config{
					BaseURL: srv.URL, Token: dataset.SyntheticToken, Output: out, CacheDir: cache,
					Limits: ratelimit.Limits{}, Formats: []string{"html"},
				})
				heap.Report(b)
				if err != nil {
					b.Fatal(err)
				}
				if sum.Written != trees {
					b.Fatalf("wrote %d trees, want %d", sum.Written, trees)
				}
			}
			b.ReportMetric(float64(trees), "trees")
			b.ReportMetric(float64(trees)/(b.Elapsed().Seconds()/float64(b.N)), "trees/s")
		})
	}
}
