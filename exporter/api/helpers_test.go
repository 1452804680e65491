package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// Tokens of the sample dataset.
const (
	sampleToken    = "sandbox-riverbend-token" // org-riverbend: 101..113, curriculum_201..212
	northwindToken = "sandbox-northwind-token" // org-northwind: 301
	expiredToken   = "sandbox-expired-token"
)

// tiny.json and its tokens.
const (
	tinyPath = "../sandbox/dataset/testdata/tiny.json"
	tokA     = "tok-a"   // org-a: b1, v1 (alternate shape), v2
	tokB     = "tok-b"   // org-b: other
	tokOld   = "tok-old" // expired
)

// prefix is where the test servers mount the API, as a reverse proxy
// would: a client that drops the base URL's path fails loudly.
const prefix = "/curriculum"

func sampleDataset(t testing.TB) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatalf("sample dataset: %v", err)
	}
	return ds
}

func tinyDataset(t testing.TB) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.Open(tinyPath)
	if err != nil {
		t.Fatalf("tiny dataset: %v", err)
	}
	return ds
}

// recorded is a request as the server saw it.
type recorded struct {
	Method, URI string
	Header      http.Header
}

// server is a sandbox served over a socket under prefix. It records the
// requests it gets.
type server struct {
	*httptest.Server
	Handler *sandbox.Handler

	mu   sync.Mutex
	reqs []recorded
}

// serve serves ds with opts. Nil Limits mean no limit (not the API
// default), so that tests are not throttled.
func serve(t testing.TB, ds *dataset.Dataset, opts sandbox.Options) *server {
	t.Helper()
	if opts.Limits == nil {
		opts.Limits = ratelimit.Limits{}
	}
	h, err := sandbox.New(ds, opts)
	if err != nil {
		t.Fatalf("sandbox.New: %v", err)
	}
	s := &server{Handler: h}
	mux := http.NewServeMux()
	mux.Handle(prefix+"/", http.StripPrefix(prefix, h))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, recorded{Method: r.Method, URI: r.RequestURI, Header: r.Header.Clone()})
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the base URL clients are given.
func (s *server) BaseURL() string { return s.URL + prefix }

// requests returns the requests received so far.
func (s *server) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// last returns the last request received.
func (s *server) last(t testing.TB) recorded {
	t.Helper()
	reqs := s.requests()
	if len(reqs) == 0 {
		t.Fatal("the server got no request")
	}
	return reqs[len(reqs)-1]
}

func newClient(t testing.TB, baseURL, token string, opts ...api.Option) *api.Client {
	t.Helper()
	c, err := api.New(baseURL, token, opts...)
	if err != nil {
		t.Fatalf("api.New(%q): %v", baseURL, err)
	}
	return c
}

// setup serves ds without limits or faults and returns a client for token.
func setup(t testing.TB, ds *dataset.Dataset, token string, opts ...api.Option) (*api.Client, *server) {
	t.Helper()
	s := serve(t, ds, sandbox.Options{})
	return newClient(t, s.BaseURL(), token, opts...), s
}

// faulty serves the sample dataset with faults (a ParseFaults spec).
func faulty(t testing.TB, faults string) *server {
	t.Helper()
	fs, err := sandbox.ParseFaults(faults)
	if err != nil {
		t.Fatalf("ParseFaults(%q): %v", faults, err)
	}
	return serve(t, sampleDataset(t), sandbox.Options{Faults: fs})
}

// fixed serves handcrafted answers: path (below /api/v1/) → handler.
func fixed(t testing.TB, routes map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h, ok := routes[strings.TrimPrefix(r.URL.Path, "/api/v1/")]; ok {
			h(w, r)
			return
		}
		http.Error(w, "no route for "+r.URL.Path, http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// jsonBody answers status with body as JSON.
func jsonBody(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// ctx returns a context ended with the test.
func ctx(t testing.TB) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// memCache is an in-memory api.Cache that counts its use.
type memCache struct {
	mu      sync.Mutex
	entries map[string]memEntry
	gets    int
	puts    int
	putErr  error
}

type memEntry struct {
	etag string
	body []byte
}

func newMemCache() *memCache { return &memCache{entries: map[string]memEntry{}} }

func (c *memCache) Get(key string) (string, []byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	e, ok := c.entries[key]
	return e.etag, e.body, ok
}

func (c *memCache) Put(key, etag string, body []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.puts++
	if c.putErr != nil {
		return c.putErr
	}
	c.entries[key] = memEntry{etag: etag, body: body}
	return nil
}

func (c *memCache) keys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ks []string
	for k := range c.entries {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// noToken fails when err, printed in any way, shows a token.
func noToken(t testing.TB, err error, tokens ...string) {
	t.Helper()
	if err == nil {
		return
	}
	for _, s := range []string{err.Error(), fmtAll(err)} {
		for _, tok := range tokens {
			if tok != "" && strings.Contains(s, tok) {
				t.Errorf("error shows the token %q: %s", tok, s)
			}
		}
	}
}

// fmtAll prints err and everything it wraps, with their fields.
func fmtAll(err error) string {
	var b strings.Builder
	for e := err; e != nil; e = errors.Unwrap(e) {
		fmt.Fprintf(&b, "%v %+v %#v", e, e, e)
		b.WriteString("\n")
	}
	return b.String()
}
