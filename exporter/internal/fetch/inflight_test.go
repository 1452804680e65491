package fetch_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// bodyTransport answers every request as base does, its 200 bodies padded
// with spaces to size bytes and a Content-Length, and counts the bodies
// something started to read.
type bodyTransport struct {
	base http.RoundTripper
	size int
	read atomic.Int64
}

func (b *bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := b.base.RoundTrip(r)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if len(data) < b.size {
		data = append(data, bytes.Repeat([]byte(" "), b.size-len(data))...)
	}
	resp.Body = &countedBody{r: bytes.NewReader(data), n: &b.read}
	resp.ContentLength = int64(len(data))
	resp.Header.Set("Content-Length", strconv.Itoa(len(data)))
	return resp, nil
}

type countedBody struct {
	r       io.Reader
	n       *atomic.Int64
	started bool
}

func (c *countedBody) Read(p []byte) (int, error) {
	if !c.started {
		c.started = true
		c.n.Add(1)
	}
	return c.r.Read(p)
}

func (c *countedBody) Close() error { return nil }

// TestBodiesInFlightBounded fetches every sample tree, each answer 1 MiB,
// with 3 workers while each holds the first tree: the workers read no
// more bodies than BodyBytesInFlight has room for (2 under 2.5 MiB, 1 under
// 0.5 MiB, a body larger than the whole budget being read alone), where
// 2 × Concurrency + 1 were read before; every tree is still delivered.
func TestBodiesInFlightBounded(t *testing.T) {
	const size = 1 << 20
	for _, tt := range []struct {
		budget int64
		want   int64
	}{{5 * size / 2, 2}, {size / 2, 1}} {
		t.Run(strconv.FormatInt(tt.budget, 10), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				bt := &bodyTransport{base: &sandboxtest.Transport{Handler: trHandler(t, sandbox.Options{})}, size: size}
				client, err := api.New("http://sandbox.test", trToken, api.WithHTTPClient(&http.Client{Transport: bt}), api.WithAllowHTTP())
				if err != nil {
					t.Fatal(err)
				}
				plan, err := fetch.Discover(context.Background(), client, retry.Policy{Retryable: api.Retryable}, fetch.Filter{})
				if err != nil {
					t.Fatal(err)
				}
				exports := plan.Exports()
				discovery := bt.read.Load()
				hold := make(chan struct{})
				var calls atomic.Int64
				f := &fetch.Fetcher{Client: client, Retry: retry.Policy{Retryable: api.Retryable}, Concurrency: 3, BodyBytesInFlight: tt.budget}
				done := make(chan error)
				go func() {
					done <- f.Fetch(context.Background(), exports, func(r fetch.Result) error {
						if calls.Add(1) == 1 {
							<-hold
						}
						return r.Err
					})
				}()
				synctest.Wait() // each holds a tree; the workers wait for room
				if got := bt.read.Load() - discovery; got != tt.want {
					t.Errorf("%d bodies read while each held one, want %d (a budget of %d bytes, bodies of %d)", got, tt.want, tt.budget, size)
				}
				close(hold)
				if err := <-done; err != nil {
					t.Fatal(err)
				}
				if got := calls.Load(); got != int64(len(exports)) {
					t.Errorf("each called %d times, want %d", got, len(exports))
				}
			})
		})
	}
}
