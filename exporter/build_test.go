package exporter_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// TestBuildFromCache builds from the cache of an export alone (the shared
// export of the sample, sampleExport): the same files, with no network.
func TestBuildFromCache(t *testing.T) {
	t.Parallel()
	shared := sampleExport(t)
	exported := shared.Out
	// A copy of the cache: a build writes its snapshots there.
	cache := copyShared(t, shared.Cache, "cache")
	checkBundles(t, exported, shared.Planned)

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

// TestBuildSelectionAfterFullExport (issue 25): after a full export,
// curex build --curriculum 101 (or algebra-1) failed, "cache lacks
// .../curricula/101/variants": the filtered discovery asked for an answer
// the full one never needed. Every selection flag must work in build as
// in export, with the same output as an export of the same selection.
func TestBuildSelectionAfterFullExport(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	cache := t.TempDir()
	formats := []string{"json"}
	if _, err := exporter.Run(context.Background(), exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "full"),
		CacheDir: cache, Limits: ratelimit.Limits{}, Generator: "curex test", Formats: formats}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		filter fetch.Filter
	}{
		{"curriculum by id", fetch.Filter{Curricula: []string{"101"}}},
		{"curriculum by slug", fetch.Filter{Curricula: []string{"algebra-1"}}},
		{"alternate-shape curriculum", fetch.Filter{Curricula: []string{"curriculum_201"}}},
		{"variants", fetch.Filter{Variants: []string{"base", "Texas"}}},
		{"locales", fetch.Filter{Locales: []string{"en", "ar"}}},
		{"all three", fetch.Filter{Curricula: []string{"algebra-1"}, Variants: []string{"Texas"}, Locales: []string{"es"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			exported := filepath.Join(t.TempDir(), "exported")
			want, err := exporter.Run(context.Background(), exporter.Config{BaseURL: url, Token: token, Output: exported,
				CacheDir: t.TempDir(), Limits: ratelimit.Limits{}, Generator: "curex test", Formats: formats, Filter: tc.filter})
			if err != nil {
				t.Fatal(err)
			}
			// A copy of the cache each: a build writes its snapshots there,
			// and curex does not share one cache between runs at once.
			own := t.TempDir()
			if err := os.CopyFS(own, os.DirFS(cache)); err != nil {
				t.Fatal(err)
			}
			built := filepath.Join(t.TempDir(), "built")
			got, err := exporter.Build(context.Background(), exporter.Config{Output: built, CacheDir: own,
				Generator: "curex test", Formats: formats, Filter: tc.filter})
			if err != nil {
				t.Fatalf("build after a full export: %v", err)
			}
			if got.Planned != want.Planned || got.Written != got.Planned || got.Planned == 0 {
				t.Fatalf("built %d of %d trees, the export planned %d", got.Written, got.Planned, want.Planned)
			}
			wf, gf := files(t, exported), files(t, built)
			if len(wf) != len(gf) {
				t.Fatalf("build wrote %d files, the export %d", len(gf), len(wf))
			}
			for p, body := range wf {
				if gf[filepath.Join(built, strings.TrimPrefix(p, exported))] != body {
					t.Errorf("%s differs between export and build", strings.TrimPrefix(p, exported))
				}
			}
		})
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
		{name: "no cache folder", cache: filepath.Join(t.TempDir(), "none"), want: "no cache at", config: true},
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

// TestBuildKeepsPerExportFailuresAlone: an export that fails alone in
// curex export (here, a listed locale code that is no language tag) fails
// alone in curex build too, instead of failing the whole build.
func TestBuildKeepsPerExportFailuresAlone(t *testing.T) {
	t.Parallel()
	h, _ := sampleServer(t, sandbox.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/curricula/101/locales" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Errorf("locales: %v", err)
			return
		}
		data := body["data"].([]any)
		entry := map[string]any{"code": "klingon!!", "name": "Klingon", "is_primary": false, "translation_progress": 100, "published_progress": 100}
		if first := data[0].(map[string]any); first["attributes"] != nil {
			entry = map[string]any{"id": "101:klingon", "type": first["type"], "attributes": entry}
		}
		body["data"] = append(data, entry)
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v // the ETag too: build reads the answer from the cache
			}
		}
		w.WriteHeader(rec.Code)
		_ = json.NewEncoder(w).Encode(body)
	}))
	t.Cleanup(srv.Close)
	cache := t.TempDir()
	cfg := exporter.Config{BaseURL: srv.URL, Token: token, Output: filepath.Join(t.TempDir(), "exported"), CacheDir: cache,
		Limits: ratelimit.Limits{}, Generator: "curex test", Formats: []string{"json"}}
	first, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Failures) == 0 {
		t.Fatal("no export failed: the locale code that is no tag was accepted")
	}
	sum, err := exporter.Build(context.Background(), exporter.Config{Output: filepath.Join(t.TempDir(), "built"), CacheDir: cache,
		Generator: "curex test", Formats: []string{"json"}})
	if err != nil {
		t.Fatalf("build: %v (want the bad locale's exports failed alone)", err)
	}
	if len(sum.Failures) != len(first.Failures) || sum.Written != first.Written {
		t.Errorf("build: %d failed, %d written; export: %d failed, %d written", len(sum.Failures), sum.Written, len(first.Failures), first.Written)
	}
}
