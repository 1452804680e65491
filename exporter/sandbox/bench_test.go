package sandbox_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// BenchmarkResolvedRequest serves GET /resolved for a synthetic curriculum
// of 2000 nodes with 3 locales, with the answer cache off (every request
// resolves and encodes the tree) and on (repeat requests); the bytes are
// those of one answer.
func BenchmarkResolvedRequest(b *testing.B) {
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Variants: 1, Locales: 3, Nodes: 2000, Depth: 3, Seed: 1})
	base := ds.Curricula[0]
	variant := ds.Curricula[1]
	for _, cache := range []struct {
		name  string
		bytes int
	}{{"uncached", -1}, {"cached", 0}} {
		h := newHandler(b, ds, sandbox.Options{Limits: noLimits, CacheBytes: cache.bytes})
		for _, bc := range []struct{ name, query string }{
			{"base", ""},
			{"base es", "?locale=es"},
			{"variant fr", "?variant=" + url.QueryEscape(variant.Name) + "&locale=fr"},
		} {
			b.Run(cache.name+"/"+bc.name, func(b *testing.B) {
				req := httptest.NewRequest(http.MethodGet, "/api/v1/curricula/"+base.ID+"/resolved"+bc.query, nil)
				req.Header.Set("Authorization", "Bearer "+dataset.SyntheticToken)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				if n := num(b, decodeObject(b, rec.Body.Bytes()), "meta", "node_count"); n < 2000 {
					b.Fatalf("node_count %d, want at least 2000", n)
				}
				b.SetBytes(int64(rec.Body.Len()))
				b.ReportAllocs()
				for b.Loop() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatalf("status %d", rec.Code)
					}
				}
			})
		}
	}
}

// BenchmarkServeSockets measures requests per second over real loopback
// connections with keep-alive clients in parallel, on the sample dataset: a
// mix of list, curriculum, locale and resolved requests, without limits.
func BenchmarkServeSockets(b *testing.B) {
	ds, err := dataset.Sample()
	if err != nil {
		b.Fatal(err)
	}
	for _, cache := range []struct {
		name  string
		bytes int
	}{{"uncached", -1}, {"cached", 0}} {
		b.Run(cache.name, func(b *testing.B) {
			srv := httptest.NewServer(newHandler(b, ds, sandbox.Options{Limits: noLimits, CacheBytes: cache.bytes}))
			defer srv.Close()
			paths := []string{
				"/api/v1/curricula",
				"/api/v1/curricula/101",
				"/api/v1/curricula/101/locales",
				"/api/v1/curricula/101/resolved?variant=Houston%20ISD&locale=es",
				"/api/v1/curricula/curriculum_201/resolved?locale=ja",
			}
			var next atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
				for pb.Next() {
					req, _ := http.NewRequest(http.MethodGet, srv.URL+paths[next.Add(1)%int64(len(paths))], nil)
					req.Header.Set("Authorization", "Bearer sandbox-riverbend-token")
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}
