package sandbox_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// BenchmarkResolvedRequest serves GET /resolved for a synthetic curriculum
// of 2000 nodes with 3 locales; the bytes are those of one answer.
func BenchmarkResolvedRequest(b *testing.B) {
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Variants: 1, Locales: 3, Nodes: 2000, Depth: 3, Seed: 1})
	h := newHandler(b, ds, sandbox.Options{Limits: noLimits})
	base := ds.Curricula[0]
	variant := ds.Curricula[1]
	for _, bc := range []struct{ name, query string }{
		{"base", ""},
		{"base es", "?locale=es"},
		{"variant fr", "?variant=" + url.QueryEscape(variant.Name) + "&locale=fr"},
	} {
		b.Run(bc.name, func(b *testing.B) {
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
