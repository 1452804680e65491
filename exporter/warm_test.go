package exporter_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
)

// TestWarmBuildRepeatsNothing (issue 26 part 2): curex dev rebuilt
// the website from nothing on every save, and stemming the search
// index's words in goja was 29 % of a rebuild of the sample. Builds
// that share an exporter.Warm (as a dev session's do) stem each word
// once, and decode each tree of the cache once: the second build runs no
// stemmer and decodes no tree, and writes the same bytes as the first. One curriculum of the shared export's cache in Spanish, website alone,
// to keep it cheap.
func TestWarmBuildRepeatsNothing(t *testing.T) {
	t.Parallel()
	cache := copyShared(t, sampleExport(t).Cache, "cache")
	w := exporter.NewWarm()
	build := func(out string) map[string]string {
		t.Helper()
		sum, err := exporter.Build(context.Background(), exporter.Config{Output: out, CacheDir: cache, Formats: []string{"html"},
			Filter: fetch.Filter{Curricula: []string{"algebra-1"}, Locales: []string{"es"}}, Generator: "curex test", Warm: w})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Partial() || sum.Written == 0 {
			t.Fatalf("built %d trees, failures %v", sum.Written, sum.Failures)
		}
		got := map[string]string{}
		for p, body := range files(t, out) {
			got[strings.TrimPrefix(p, out)] = body
		}
		return got
	}
	first := build(filepath.Join(t.TempDir(), "first"))
	stemmed, decoded := exporter.StemsRun(w), exporter.TreesDecoded(w)
	if stemmed == 0 {
		t.Fatal("the first build stemmed no word: the website did not use the Warm's stemmers")
	}
	if decoded == 0 {
		t.Fatal("the first build decoded no tree through the Warm's memo")
	}
	second := build(filepath.Join(t.TempDir(), "second"))
	if again := exporter.StemsRun(w) - stemmed; again != 0 {
		t.Errorf("the second build stemmed %d words again, want 0 (all from the memo)", again)
	}
	if again := exporter.TreesDecoded(w) - decoded; again != 0 {
		t.Errorf("the second build decoded %d trees again, want 0 (all from the memo)", again)
	}
	if len(first) != len(second) {
		t.Fatalf("the builds wrote %d and %d files", len(first), len(second))
	}
	for p, body := range first {
		if second[p] != body {
			t.Errorf("%s differs between the first and the second build", p)
		}
	}
}
