package api_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"

	"github.com/curex/curex/exporter/api"
)

// TestBodyReservation checks that the Client asks for room before it
// reads a 2xx body: the Content-Length when there is one, its body limit
// when the body is chunked, and that a refusal ends the request.
func TestBodyReservation(t *testing.T) {
	const body = `{"id":"u1","email":"a@example.org","name":"A","organization_id":"o","organization_name":"O"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("chunked") == "" {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.Write([]byte(body))
		w.(http.Flusher).Flush()
	}))
	defer srv.Close()
	c, err := api.New(srv.URL, "t", api.WithAllowHTTP(), api.WithMaxBodyBytes(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		query url.Values
		want  int64
	}{{nil, int64(len(body))}, {url.Values{"chunked": {"1"}}, 1 << 20}} {
		var asked []int64
		ctx := api.WithBodyReservation(context.Background(), func(_ context.Context, n int64) error { asked = append(asked, n); return nil })
		req, err := c.NewRequest(ctx, "me", tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Do(req, nil); err != nil {
			t.Fatal(err)
		}
		if len(asked) != 1 || asked[0] != tt.want {
			t.Errorf("%v: reserved %v, want [%d]", tt.query, asked, tt.want)
		}
	}
	refused := errors.New("no room")
	ctx := api.WithBodyReservation(context.Background(), func(context.Context, int64) error { return refused })
	req, err := c.NewRequest(ctx, "me", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(req, nil); !errors.Is(err, refused) || api.Retryable(err) {
		t.Errorf("err = %v (retryable %v), want the refusal, not retried", err, api.Retryable(err))
	}
}
