package fetch_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
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
	f := &fetch.Fetcher{Client: client, Retry: retry.Policy{Retryable: api.Retryable}, Concurrency: 3}
	delivered := 0
	err = f.Fetch(context.Background(), exports, func(fetch.Result) error { delivered++; return nil })
	if !errors.Is(err, fetch.ErrFatal) || !errors.Is(err, api.ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrFatal wrapping the 401", err)
	}
	if n := requests.Load(); n > 3 || delivered != 0 {
		t.Errorf("%d requests sent and %d trees delivered after a 401; want at most the 3 in flight and none", n, delivered)
	}
}

// countingTransport counts the requests base answered.
type countingTransport struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if err == nil {
		c.n.Add(1)
	}
	return resp, err
}

// TestSlowConsumerDoesNotHoldTheWorkers: while each is busy with one tree
// (a render), the workers go on fetching: the queue takes Concurrency
// trees and each worker one more before they wait, so 2 × Concurrency + 1
// requests are out, not the Concurrency a worker-side call would allow.
// Every tree is delivered once each is free again. (Were each called by
// the workers under a sync.Mutex again, synctest.Wait would not return,
// and the test would fail at go test's -timeout.)
func TestSlowConsumerDoesNotHoldTheWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ct := &countingTransport{base: &sandboxtest.Transport{Handler: trHandler(t, sandbox.Options{})}}
		client, err := api.New("http://sandbox.test", trToken, api.WithHTTPClient(&http.Client{Transport: ct}), api.WithAllowHTTP())
		if err != nil {
			t.Fatal(err)
		}
		plan, err := fetch.Discover(context.Background(), client, retry.Policy{Retryable: api.Retryable}, fetch.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		exports := plan.Exports()
		const concurrency = 2
		if len(exports) < 2*concurrency+3 {
			t.Fatalf("the sample has %d trees; the test needs %d", len(exports), 2*concurrency+3)
		}
		discovery := ct.n.Load()
		hold := make(chan struct{})
		var calls atomic.Int64
		f := &fetch.Fetcher{Client: client, Retry: retry.Policy{Retryable: api.Retryable}, Concurrency: concurrency}
		done := make(chan error)
		go func() {
			done <- f.Fetch(context.Background(), exports, func(r fetch.Result) error {
				if calls.Add(1) == 1 {
					<-hold // the first tree renders until the test lets it go
				}
				if r.Err != nil {
					return r.Err
				}
				return nil
			})
		}()
		synctest.Wait() // everyone is blocked: each on hold, the workers on the queue
		if got, want := ct.n.Load()-discovery, int64(2*concurrency+1); got != want {
			t.Errorf("%d requests sent while each was busy, want %d", got, want)
		}
		close(hold)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if got := calls.Load(); got != int64(len(exports)) {
			t.Errorf("each called %d times, want %d", got, len(exports))
		}
	})
}

// TestConsumerErrorStopsTheRun: an error of each ends Fetch with that
// error (not the cancellation it causes), and no tree is handed over after
// it.
func TestConsumerErrorStopsTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		client, err := api.New("http://sandbox.test", trToken,
			api.WithHTTPClient(&http.Client{Transport: &sandboxtest.Transport{Handler: trHandler(t, sandbox.Options{})}}), api.WithAllowHTTP())
		if err != nil {
			t.Fatal(err)
		}
		plan, err := fetch.Discover(context.Background(), client, retry.Policy{Retryable: api.Retryable}, fetch.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		boom := errors.New("disk full")
		calls := 0
		f := &fetch.Fetcher{Client: client, Retry: retry.Policy{Retryable: api.Retryable}, Concurrency: 3}
		err = f.Fetch(context.Background(), plan.Exports(), func(fetch.Result) error {
			calls++
			if calls == 2 {
				return boom
			}
			return nil
		})
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v, want the consumer's error", err)
		}
		if calls != 2 {
			t.Errorf("each called %d times, want 2 (none after its error)", calls)
		}
	})
}

// TestCancelledRunDeliversWhatItFetched: a tree whose request went out is
// handed to each even when the run is cancelled while it waits in the
// queue, so the caller records it and the next run does not ask again.
func TestCancelledRunDeliversWhatItFetched(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ct := &countingTransport{base: &sandboxtest.Transport{Handler: trHandler(t, sandbox.Options{})}}
		client, err := api.New("http://sandbox.test", trToken, api.WithHTTPClient(&http.Client{Transport: ct}), api.WithAllowHTTP())
		if err != nil {
			t.Fatal(err)
		}
		plan, err := fetch.Discover(context.Background(), client, retry.Policy{Retryable: api.Retryable}, fetch.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		discovery := ct.n.Load()
		ctx, cancel := context.WithCancel(context.Background())
		hold := make(chan struct{})
		var calls atomic.Int64
		f := &fetch.Fetcher{Client: client, Retry: retry.Policy{Retryable: api.Retryable}, Concurrency: 2}
		done := make(chan error)
		go func() {
			done <- f.Fetch(ctx, plan.Exports(), func(fetch.Result) error {
				if calls.Add(1) == 1 {
					<-hold
				}
				return nil
			})
		}()
		synctest.Wait() // each holds the first tree; the others wait in the queue
		cancel()
		close(hold)
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		// A request the cancellation cut short has no answer to hand over.
		if answered := ct.n.Load() - discovery; calls.Load() != answered {
			t.Errorf("%d trees answered, %d handed to each", answered, calls.Load())
		}
	})
}
