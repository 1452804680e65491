//go:build linux

package exporter_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/render/starter"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// BenchmarkRebuildAfterTemplateChange is what `curex dev` does on a save
// (issue 26: a change visible within a second on the sample, within a few
// seconds on a 5,000-page site): a theme made by curex theme init, a
// change to one of its templates (styles.html) or to its stylesheet
// (assets/custom.css), then exporter.Build into the output the previous
// build wrote (the output writer keeps the files whose bytes did not
// change). Only the build is timed: dev adds its debounce (100 ms) before
// and the browser's reload after. The sample is the sandbox's (28
// exports); "nodes=5000" is one synthetic 5,000-node tree (one page a
// node). Each runs with the website alone (--formats html) and with the
// default formats, and as curex build (as=build: nothing kept between
// builds) and as curex dev (as=dev: one exporter.Warm for the builds).
func BenchmarkRebuildAfterTemplateChange(b *testing.B) {
	for _, data := range []struct {
		name string
		ds   func() (*dataset.Dataset, string, error)
	}{
		{"sample", func() (*dataset.Dataset, string, error) {
			ds, err := dataset.Sample()
			return ds, token, err
		}},
		{"nodes=5000", func() (*dataset.Dataset, string, error) {
			return dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 1, Nodes: 5000, Depth: 3, Seed: 1}), dataset.SyntheticToken, nil
		}},
	} {
		// The cache is filled inside the data's sub-benchmark, so that
		// -bench .../sample/ does not export the 5,000-node tree.
		b.Run(data.name, func(b *testing.B) {
			ds, tok, err := data.ds()
			if err != nil {
				b.Fatal(err)
			}
			cache := fillCache(b, ds, tok)
			for _, formats := range [][]string{{"html"}, exporter.DefaultFormats()} {
				for _, change := range []string{"template", "stylesheet"} {
					for _, as := range []string{"build", "dev"} {
						name := fmt.Sprintf("formats=%s/change=%s/as=%s", strings.Join(formats, "+"), change, as)
						b.Run(name, func(b *testing.B) { benchRebuild(b, cache, formats, change, as == "dev") })
					}
				}
			}
		})
	}
}

// benchRebuild builds from cache into one output, then times the builds
// that follow each change. With warm, every build shares one
// exporter.Warm, as those of one curex dev session do; without, each
// build starts afresh, as curex build does (and curex dev did before
// Warm).
func benchRebuild(b *testing.B, cache string, formats []string, change string, warm bool) {
	theme := filepath.Join(b.TempDir(), "theme")
	if _, err := starter.Write(context.Background(), theme); err != nil {
		b.Fatal(err)
	}
	c := exporter.Config{Output: filepath.Join(b.TempDir(), "out"), CacheDir: cache, Formats: formats,
		ThemeDir: theme, Generator: "curex bench"}
	if warm {
		c.Warm = exporter.NewWarm()
	}
	if _, err := exporter.Build(context.Background(), c); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	n := 0
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		n++
		edit(b, theme, change, n)
		before := cpuTime(b)
		b.StartTimer()
		sum, err := exporter.Build(context.Background(), c)
		b.StopTimer()
		cpu += cpuTime(b) - before
		b.StartTimer()
		if err != nil {
			b.Fatal(err)
		}
		if sum.Partial() {
			b.Fatalf("partial build: %v", sum.Failures)
		}
		b.ReportMetric(float64(sum.FilesWritten), "files-written")
	}
	// CPU time (user and system) of the process per build: on a busy
	// machine the wall time waits for cores, this does not.
	b.ReportMetric(cpu.Seconds()/float64(n), "cpu-s/op")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// fillCache exports ds's JSON bundles once, filling a cache to build from.
func fillCache(b *testing.B, ds *dataset.Dataset, tok string) string {
	b.Helper()
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	cache := b.TempDir()
	if _, err := exporter.Run(context.Background(), exporter.Config{
		BaseURL: srv.URL, Token: tok, Output: filepath.Join(b.TempDir(), "out"), CacheDir: cache,
		Limits: ratelimit.Limits{}, Formats: []string{"json"},
	}); err != nil {
		b.Fatal(err)
	}
	return cache
}

// edit makes the n-th change of a kind to the theme made by curex theme
// init: a template (styles.html gains a comment) or the stylesheet
// (custom.css gains a rule).
func edit(b *testing.B, theme, change string, n int) {
	b.Helper()
	p, old, add := filepath.Join(theme, "styles.html"), `{{define "styles"}}`, fmt.Sprintf(`{{define "styles"}}<meta name="x-edit" content="%d">`, n)
	if change == "stylesheet" {
		p, old, add = filepath.Join(theme, "assets", "custom.css"), "", fmt.Sprintf(".edit-%d { color: inherit; }\n", n)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	s := string(data)
	if old == "" {
		s += add
	} else {
		if !strings.Contains(s, old) {
			b.Fatalf("%s lacks %s", p, old)
		}
		s = strings.Replace(s, old, add, 1)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		b.Fatal(err)
	}
}
