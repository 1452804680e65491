package fetch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// pagingServer is a hostile curricula list in front of the sandbox: it
// rewrites every /curricula request and answer as mode says.
type pagingServer struct {
	t    testing.TB
	base http.Handler
	mode string
	list int // /curricula requests answered
}

func (s *pagingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/v1/curricula" {
		s.base.ServeHTTP(w, r)
		return
	}
	s.list++
	if s.list > 300 { // stops unbounded paging; the test then fails on the count
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"code":"unauthorized","message":"enough","details":{}}}`))
		return
	}
	q := r.URL.Query()
	asked := q.Get("page")
	q.Set("page", "1") // every mode ignores page
	r.URL.RawQuery = q.Encode()
	rec := httptest.NewRecorder()
	s.base.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK {
		s.t.Errorf("sandbox answered %d: %s", rec.Code, rec.Body)
		return
	}
	var doc map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		s.t.Errorf("sandbox answer: %v", err)
		return
	}
	meta, _ := doc["meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		doc["meta"] = meta
	}
	switch s.mode {
	case "echoes page 1":
		meta["total_count"] = 20000
	case "repeats the records":
		meta["total_count"] = 20000 // 200 pages: under the cap
		delete(meta, "page")
	case "new ids forever":
		// Fresh ids on every page and a total of a million, one a page.
		data := doc["data"].([]any)
		rec := data[0].(map[string]any)
		rec["id"] = "fake-" + asked
		doc["data"] = []any{rec}
		meta["total_count"] = 1000000
		meta["per_page"] = 1
		meta["page"], _ = json.Number(asked).Int64()
	}
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(doc)
	w.Header().Set("Content-Type", "application/json")
	w.Write(b.Bytes())
}

// TestDiscoveryBoundsHostilePaging: a server that ignores page (and
// claims a huge total_count) makes discovery fail after a page or two
// with a message naming the fault, instead of paging on until the total
// or the hourly budget runs out (before: 1,000 list requests for the
// first list alone; the third case 1,000,000).
func TestDiscoveryBoundsHostilePaging(t *testing.T) {
	tests := []struct {
		mode    string
		maxList int
		want    string
	}{
		{"echoes page 1", 2, "answered page 1 when asked for page 2"},
		{"repeats the records", 2, "page 2 brought only curricula earlier pages had"},
		{"new ids forever", 1, "more than the 250 pages curex reads"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			s := &pagingServer{t: t, base: trHandler(t, sandbox.Options{Limits: ratelimit.Limits{}}), mode: tt.mode}
			srv := httptest.NewServer(s)
			defer srv.Close()
			client, err := api.New(srv.URL, trToken, api.WithAllowHTTP())
			if err != nil {
				t.Fatal(err)
			}
			_, err = fetch.Discover(context.Background(), client, retry.Policy{Retryable: api.Retryable}, fetch.Filter{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one saying %q", err, tt.want)
			}
			if s.list > tt.maxList {
				t.Errorf("%d list requests, want at most %d", s.list, tt.maxList)
			}
			t.Logf("%d list requests: %v", s.list, err)
		})
	}
}
