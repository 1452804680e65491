package exporter_test

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// TestCacheIsScopedByAPIOrigin: an export against staging, then one
// against production with the same ids (and the same signals) and the
// same --cache-dir. Before, the second export published staging's trees
// without a request to production (its state and ETag cache said every
// tree was unchanged); now each server has its own cache and state, so
// production's trees are fetched from production.
func TestCacheIsScopedByAPIOrigin(t *testing.T) {
	t.Parallel()
	server := func(edit func(*dataset.Dataset)) (string, *atomic.Int64) {
		ds, err := dataset.Sample()
		if err != nil {
			t.Fatal(err)
		}
		edit(ds)
		h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}})
		if err != nil {
			t.Fatal(err)
		}
		var resolved atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/resolved") {
				resolved.Add(1)
			}
			h.ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		return srv.URL, &resolved
	}
	staging, _ := server(func(*dataset.Dataset) {})
	production, prodResolved := server(func(ds *dataset.Dataset) {
		// Other titles, the same updated_at: nothing in the lists tells.
		for i := range ds.Curricula {
			for j := range ds.Curricula[i].Nodes {
				ds.Curricula[i].Nodes[j].Title = "Production " + ds.Curricula[i].Nodes[j].Title
			}
		}
	})
	cache := t.TempDir()
	run := func(base, out, cache string) *exporter.Summary {
		sum, err := exporter.Run(context.Background(), exporter.Config{
			BaseURL: base, Token: token, Output: out, CacheDir: cache, AllowHTTP: true,
			Limits: ratelimit.Limits{}, Generator: "curex test", Formats: []string{"json"},
			Revalidate: fresh.Policy{Mode: fresh.Never}, // the signals alone decide
		})
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	// What production's export is, from a cache of its own.
	want := filepath.Join(t.TempDir(), "reference")
	run(production, want, t.TempDir())
	prodResolved.Store(0)

	run(staging, filepath.Join(t.TempDir(), "staging"), cache)
	prodOut := filepath.Join(t.TempDir(), "production")
	sum := run(production, prodOut, cache)
	if n := prodResolved.Load(); n != int64(sum.Planned) {
		t.Errorf("%d trees asked of production, want all %d (the cache of staging answered the rest)", n, sum.Planned)
	}
	trees, stale := 0, 0
	_ = filepath.WalkDir(want, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != "tree.json" {
			return nil
		}
		rel, _ := filepath.Rel(want, p)
		ref, err1 := os.ReadFile(p)
		got, err2 := os.ReadFile(filepath.Join(prodOut, rel))
		if err1 != nil || err2 != nil {
			t.Fatalf("%v, %v", err1, err2)
		}
		trees++
		if string(got) != string(ref) {
			stale++
		}
		return nil
	})
	if trees == 0 || stale > 0 {
		t.Errorf("%d of %d trees of the production export are not production's", stale, trees)
	}
	// The scopes are named by origin and organization, never the token.
	_ = filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), token) || strings.Contains(p, token) {
			t.Errorf("%s holds the token", p)
		}
		return nil
	})
}
