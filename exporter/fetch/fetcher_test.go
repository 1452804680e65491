package fetch_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/model"
)

// TestFetchStopsAtA401: once the token is rejected, the requests in flight
// end and no more are sent, however many trees are left.
func TestFetchStopsAtA401(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"code":"unauthorized","message":"token expired","details":{}}}`))
	}))
	defer srv.Close()
	client, err := api.New(srv.URL, "secret-token")
	if err != nil {
		t.Fatal(err)
	}
	var exports []model.Export
	for i := range 50 {
		exports = append(exports, model.Export{CurriculumID: "c", Variant: string(rune('A' + i%26)), Locale: string(rune('a'+i/26)) + "x"})
	}
	f := &fetch.Fetcher{Client: client, Retry: fetch.RetryPolicy{Retryable: api.Retryable}, Concurrency: 3}
	delivered := 0
	err = f.Fetch(context.Background(), exports, func(fetch.Result) error { delivered++; return nil })
	if !errors.Is(err, fetch.ErrFatal) || !errors.Is(err, api.ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrFatal wrapping the 401", err)
	}
	if n := requests.Load(); n > 3 || delivered != 0 {
		t.Errorf("%d requests sent and %d trees delivered after a 401; want at most the 3 in flight and none", n, delivered)
	}
}
