package exporter_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// TestBuildFromCache exports once, then builds from the cache alone: the
// same files, with the sandbox gone.
func TestBuildFromCache(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	cache := t.TempDir()
	exported := filepath.Join(t.TempDir(), "exported")
	cfg := exporter.Config{BaseURL: url, Token: token, Output: exported, CacheDir: cache, Limits: ratelimit.Limits{}, Generator: "curex test"}
	first, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkBundles(t, exported, first.Planned)

	built := filepath.Join(t.TempDir(), "built")
	sum, err := exporter.Build(context.Background(), exporter.Config{Output: built, CacheDir: cache, Generator: "curex test",
		// Ignored by Build: nothing may reach the network.
		BaseURL: "http://192.0.2.1:9", Token: "unused"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Written != sum.Planned || sum.Planned == 0 {
		t.Fatalf("built %d of %d", sum.Written, sum.Planned)
	}
	checkBundles(t, built, sum.Planned)
	want, got := files(t, exported), files(t, built)
	if len(want) != len(got) {
		t.Fatalf("build wrote %d files, the export %d", len(got), len(want))
	}
	for p, body := range want {
		q := filepath.Join(built, strings.TrimPrefix(p, exported))
		if got[q] != body {
			t.Errorf("%s differs between export and build", strings.TrimPrefix(p, exported))
		}
	}
}

func TestBuildFailsClearly(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	partial := t.TempDir()
	// Only Algebra 1's base in English was exported into this cache.
	cfg := exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "o"), CacheDir: partial,
		Limits: ratelimit.Limits{}, Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"base"}, Locales: []string{"en"}}}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}

	prev := filepath.Join(t.TempDir(), "site")
	if _, err := exporter.Run(context.Background(), exporter.Config{BaseURL: url, Token: token, Output: prev, CacheDir: t.TempDir(), Limits: ratelimit.Limits{}, Formats: []string{"json"}}); err != nil {
		t.Fatal(err)
	}
	before := files(t, prev)

	for _, tc := range []struct {
		name, cache string
		filter      fetch.Filter
		want        string
		missing     bool
		config      bool
	}{
		{name: "no cache folder", cache: filepath.Join(t.TempDir(), "none"), want: "run curex export with --cache-dir", config: true},
		{name: "empty cache", cache: t.TempDir(), want: "lacks an answer the plan needs"},
		{name: "trees missing", cache: partial, filter: fetch.Filter{Curricula: []string{"101"}}, want: "lacks 15 of the trees the plan needs (algebra-1/base/ar", missing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := exporter.Build(context.Background(), exporter.Config{Output: prev, CacheDir: tc.cache, Filter: tc.filter})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one mentioning %q", err, tc.want)
			}
			var me *exporter.MissingError
			if errors.As(err, &me) != tc.missing {
				t.Errorf("MissingError: %v, want %v", errors.As(err, &me), tc.missing)
			}
			var ce *exporter.ConfigError
			if errors.As(err, &ce) != tc.config {
				t.Errorf("ConfigError: %v, want %v", errors.As(err, &ce), tc.config)
			}
			after := files(t, prev)
			if len(after) != len(before) {
				t.Fatalf("a failed build changed the output: %d files before, %d after", len(before), len(after))
			}
			for p, b := range before {
				if after[p] != b {
					t.Fatalf("a failed build changed %s", p)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(prev, "manifest.json")); err != nil {
		t.Fatal(err)
	}
}
