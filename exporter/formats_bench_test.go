package exporter_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// BenchmarkBuildFormats builds one synthetic 2,000-node tree from the
// cache (curex build: no request, every stage but fetching) into a new
// folder each time: each format alone, then every format but the PDF, whose cost is Chromium's printing (BenchmarkPDF). Issue 17
// asks that every format cost less than twice the website alone: compare
// the two figures (docs/BENCHMARKS.md).
func BenchmarkBuildFormats(b *testing.B) {
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 1, Nodes: 2000, Depth: 3, Seed: 1})
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	cache := b.TempDir()
	if _, err := exporter.Run(context.Background(), exporter.Config{
		BaseURL: srv.URL, Token: dataset.SyntheticToken, Output: filepath.Join(b.TempDir(), "out"), CacheDir: cache,
		Limits: ratelimit.Limits{}, Formats: []string{"json"},
	}); err != nil {
		b.Fatal(err)
	}
	for _, formats := range [][]string{
		{"html"}, {"json"}, {"markdown"}, {"handbook"}, {"cartridge"}, {"epub"},
		{"json", "markdown", "handbook", "html", "cartridge", "epub"},
	} {
		name := strings.Join(formats, "+")
		if len(formats) > 1 {
			name = "all-but-pdf"
		}
		b.Run("formats="+name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				out := filepath.Join(b.TempDir(), "out")
				b.StartTimer()
				sum, err := exporter.Build(context.Background(), exporter.Config{
					Output: out, CacheDir: cache, Formats: formats, Generator: "curex bench",
				})
				if err != nil {
					b.Fatal(err)
				}
				if sum.Written != 1 || sum.Partial() {
					b.Fatalf("wrote %d trees (partial %v), want 1", sum.Written, sum.Partial())
				}
			}
			b.ReportMetric(2000/(b.Elapsed().Seconds()/float64(b.N)), "nodes/s")
		})
	}
}
