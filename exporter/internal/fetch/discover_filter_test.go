package fetch_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// askedServer is the sample sandbox that records the requests it is
// asked, and answers 403 to the paths in forbid.
type askedServer struct {
	base   http.Handler
	forbid map[string]bool

	mu    sync.Mutex
	asked []string
}

func (s *askedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.asked = append(s.asked, r.URL.RequestURI())
	s.mu.Unlock()
	if s.forbid[r.URL.Path] {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"error":{"code":"forbidden","message":"no","details":{}}}`))
		return
	}
	s.base.ServeHTTP(w, r)
}

// discoverAsked runs discovery of f on the sample and returns the plan
// and the requests it made.
func discoverAsked(t *testing.T, f fetch.Filter, forbid ...string) (*fetch.Plan, []string) {
	t.Helper()
	s := &askedServer{base: trHandler(t, sandbox.Options{Limits: ratelimit.Limits{}}), forbid: map[string]bool{}}
	for _, p := range forbid {
		s.forbid[p] = true
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	client, err := api.New(srv.URL, trToken, api.WithAllowHTTP())
	if err != nil {
		t.Fatal(err)
	}
	p, err := fetch.Discover(context.Background(), client, retry.Policy{Retryable: api.Retryable}, f)
	if err != nil {
		t.Fatal(err)
	}
	return p, s.asked
}

// TestFilteredDiscoveryAsksWhatTheFullOneAsks (issue 25): curex build
// --curriculum reads its answers from the cache a full export filled, so
// a filtered discovery may ask only what an unfiltered one asks. Before,
// --curriculum 101 asked /curricula/101/variants, which the full
// discovery never does (the records tell 101's variants).
func TestFilteredDiscoveryAsksWhatTheFullOneAsks(t *testing.T) {
	t.Parallel()
	_, full := discoverAsked(t, fetch.Filter{})
	for _, f := range []fetch.Filter{
		{Curricula: []string{"101"}},
		{Curricula: []string{"algebra-1"}},
		{Curricula: []string{"curriculum_201"}},
		{Curricula: []string{"101"}, Variants: []string{"Texas"}, Locales: []string{"es"}},
		{Variants: []string{"base"}},
		{Locales: []string{"en"}},
	} {
		p, asked := discoverAsked(t, f)
		for _, a := range asked {
			if !slices.Contains(full, a) {
				t.Errorf("%+v: asked %s, which the unfiltered discovery does not", f, a)
			}
		}
		if len(p.Exports()) == 0 {
			t.Errorf("%+v: nothing planned", f)
		}
	}
}

// TestFilteredDiscoveryFallsBack: when the variants of the bases a
// --curriculum leaves out cannot be read (403), their records stay
// unexplained and discovery asks the selected curriculum's variants, as
// before; the plan is the same.
func TestFilteredDiscoveryFallsBack(t *testing.T) {
	t.Parallel()
	f := fetch.Filter{Curricula: []string{"101"}}
	want, _ := discoverAsked(t, f)
	got, asked := discoverAsked(t, f, "/api/v1/curricula/curriculum_201/variants")
	if !slices.ContainsFunc(asked, func(a string) bool { return strings.HasPrefix(a, "/api/v1/curricula/101/variants") }) {
		t.Errorf("did not ask the variants of 101: %q", asked)
	}
	if len(got.Exports()) != len(want.Exports()) || len(got.Unreadable) != 0 {
		t.Errorf("%d exports (%d unreadable), want %d", len(got.Exports()), len(got.Unreadable), len(want.Exports()))
	}
}
