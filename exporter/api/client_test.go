package api_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

func TestNew(t *testing.T) {
	const tok = "s3cret-token"
	for _, tc := range []struct {
		base    string
		opts    []api.Option
		want    string // BaseURL().String(), or "" for an error
		errLike string
	}{
		{base: "https://api.example.org", want: "https://api.example.org"},
		{base: "https://api.example.org/", want: "https://api.example.org"},
		{base: "https://api.example.org/api/v1", want: "https://api.example.org"},
		{base: "https://api.example.org/api/v1/", want: "https://api.example.org"},
		{base: "https://api.example.org/tenant/x/api/v1/", want: "https://api.example.org/tenant/x"},
		{base: "HTTPS://API.example.org:8443/p%20q/", want: "https://API.example.org:8443/p%20q"},
		{base: "  https://api.example.org  ", want: "https://api.example.org"},
		{base: "http://127.0.0.1:8080", want: "http://127.0.0.1:8080"},
		{base: "http://127.9.8.7", want: "http://127.9.8.7"},
		{base: "http://localhost:8080/", want: "http://localhost:8080"},
		{base: "http://LOCALHOST", want: "http://LOCALHOST"},
		{base: "http://[::1]:8080", want: "http://[::1]:8080"},
		{base: "http://[::ffff:127.0.0.1]:8080", want: "http://[::ffff:127.0.0.1]:8080"},
		{base: "http://api.example.org", opts: []api.Option{api.WithAllowHTTP()}, want: "http://api.example.org"},
		{base: "http://10.0.0.5:8080", opts: []api.Option{api.WithAllowHTTP()}, want: "http://10.0.0.5:8080"},

		{base: "http://api.example.org", errLike: "not HTTPS"},
		{base: "http://10.0.0.5:8080", errLike: "not HTTPS"},
		{base: "http://128.0.0.1", errLike: "not HTTPS"},
		{base: "http://localhost.example.org", errLike: "not HTTPS"},
		{base: "http://127.0.0.1.nip.io", errLike: "not HTTPS"},
		{base: "http://[::2]", errLike: "not HTTPS"},
		{base: "", errLike: "empty base URL"},
		{base: "ftp://api.example.org", errLike: "absolute https"},
		{base: "api.example.org", errLike: "absolute https"},
		{base: "127.0.0.1:8080", errLike: "absolute https"},
		{base: "https://", errLike: "no host"},
		{base: "https://:443", errLike: "no host"},
		{base: "https://user:pw@api.example.org", errLike: "credentials"},
		{base: "https://api.example.org?x=1", errLike: "query"},
		{base: "https://api.example.org#frag", errLike: "fragment"},
		{base: "https://api.example.org/%zz", errLike: "not a valid URL"},
		{base: "https://a b.example.org", errLike: "not a valid URL"},
	} {
		t.Run(tc.base, func(t *testing.T) {
			c, err := api.New(tc.base, tok, tc.opts...)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("New(%q) = %v, want an error", tc.base, c)
				}
				if !strings.Contains(err.Error(), tc.errLike) {
					t.Errorf("New(%q) error %q does not mention %q", tc.base, err, tc.errLike)
				}
				if plain := tc.errLike == "not HTTPS"; errors.Is(err, api.ErrPlainHTTP) != plain {
					t.Errorf("New(%q): errors.Is(ErrPlainHTTP) = %v, want %v", tc.base, !plain, plain)
				}
				if strings.Contains(err.Error(), "pw") {
					t.Errorf("error shows the password: %v", err)
				}
				noToken(t, err, tok)
				return
			}
			if err != nil {
				t.Fatalf("New(%q): %v", tc.base, err)
			}
			if got := c.BaseURL().String(); got != tc.want {
				t.Errorf("BaseURL() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNewRejectsBadTokens(t *testing.T) {
	for _, tok := range []string{"", "two words", "line\nbreak", "tab\there", "nul\x00", "ünïcode", " padded "} {
		_, err := api.New("https://api.example.org", tok)
		if err == nil {
			t.Errorf("New with token %q succeeded", tok)
			continue
		}
		if tok != "" {
			noToken(t, err, tok)
		} else if !errors.Is(err, api.ErrNoToken) {
			t.Errorf("empty token: %v does not wrap ErrNoToken", err)
		}
	}
}

func TestBaseURLIsACopy(t *testing.T) {
	c := newClient(t, "https://api.example.org/x", "t")
	c.BaseURL().Host = "evil.example.org"
	if got := c.BaseURL().Host; got != "api.example.org" {
		t.Errorf("BaseURL changed through its result: %q", got)
	}
}

func TestClientNeverPrintsItsToken(t *testing.T) {
	const tok = "very-secret-token"
	c := newClient(t, "https://api.example.org", tok)
	for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
		if s := fmt.Sprintf(f, c); strings.Contains(s, tok) {
			t.Errorf("%s of the client shows the token: %s", f, s)
		}
	}
}

func TestNewRequest(t *testing.T) {
	c := newClient(t, "https://api.example.org/base/", "tok", api.WithUserAgent("curex-test/1"))
	for _, tc := range []struct {
		path  string
		query url.Values
		want  string
	}{
		{"me", nil, "https://api.example.org/base/api/v1/me"},
		{"/me", nil, "https://api.example.org/base/api/v1/me"},
		{"/api/v1/me", nil, "https://api.example.org/base/api/v1/me"},
		{"api/v1/curricula", url.Values{"per_page": {"5"}, "page": {"2"}}, "https://api.example.org/base/api/v1/curricula?page=2&per_page=5"},
		{"curricula/" + url.PathEscape("a b/c"), nil, "https://api.example.org/base/api/v1/curricula/a%20b%2Fc"},
		{"curricula/101/resolved", url.Values{"variant": {"Houston ISD"}, "locale": {"es"}}, "https://api.example.org/base/api/v1/curricula/101/resolved?locale=es&variant=Houston+ISD"},
	} {
		req, err := c.NewRequest(context.Background(), tc.path, tc.query)
		if err != nil {
			t.Errorf("NewRequest(%q): %v", tc.path, err)
			continue
		}
		if got := req.URL.String(); got != tc.want {
			t.Errorf("NewRequest(%q) URL = %s, want %s", tc.path, got, tc.want)
		}
		if req.Method != http.MethodGet || req.Header.Get("Authorization") != "Bearer tok" ||
			req.Header.Get("Accept") != "application/json" || req.Header.Get("User-Agent") != "curex-test/1" {
			t.Errorf("NewRequest(%q) = %s with headers %v", tc.path, req.Method, req.Header)
		}
	}
	for _, bad := range []string{"", "/", "/api/v1/", "me?x=1", "me#top", "curricula/%zz"} {
		if _, err := c.NewRequest(context.Background(), bad, nil); err == nil {
			t.Errorf("NewRequest(%q) succeeded", bad)
		}
	}
	//lint:ignore SA1012 a nil context is what is tested
	if _, err := c.NewRequest(nil, "me", nil); err == nil {
		t.Error("NewRequest with a nil context succeeded")
	}
}

// TestDoDecodesIntoAnyValue uses Do directly, as the fetch layer may.
func TestDoDecodesIntoAnyValue(t *testing.T) {
	c, _ := setup(t, tinyDataset(t), tokA)
	req, err := c.NewRequest(ctx(t), "curricula/b1/resolved", url.Values{"locale": {"es"}})
	if err != nil {
		t.Fatal(err)
	}
	var typed api.ResolvedCurriculum
	resp, err := c.Do(req, &typed)
	if err != nil {
		t.Fatal(err)
	}
	if typed.ID != "b1" || typed.Locale != "es" || len(typed.Nodes) != 3 {
		t.Errorf("typed = %+v", typed)
	}
	again, err := api.DecodeResolved(resp.Body)
	if err != nil || !reflect.DeepEqual(*again, typed) {
		t.Errorf("DecodeResolved(Body) = %+v, %v; want what Do decoded", again, err)
	}
	var loose struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if _, err := c.Do(req, &loose); err != nil || loose.Data.ID != "b1" {
		t.Errorf("Do into a plain struct = %+v, %v", loose, err)
	}
	resp, err = c.Do(req, nil)
	if err != nil || len(resp.Body) == 0 {
		t.Errorf("Do(nil) = %d bytes, %v", len(resp.Body), err)
	}
	var wrong []int
	if _, err := c.Do(req, &wrong); !errors.As(err, new(*api.DecodeError)) {
		t.Errorf("Do into a value of another shape: %v, want a *DecodeError", err)
	}
}

// TestTokenIsNotSentToAnotherOrigin serves a redirect from one server to
// another. Both listen on 127.0.0.1, so net/http alone would forward the
// Authorization header (it compares host names, not ports).
func TestTokenIsNotSentToAnotherOrigin(t *testing.T) {
	var gotAuth atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth.Store(r.Header.Get("Authorization"))
		jsonBody(200, `{"data":{"id":"u","type":"user","attributes":{"email":"e@x","name":"Elsewhere"}}}`)(w, r)
	}))
	defer other.Close()
	s := serve(t, tinyDataset(t), sandbox.Options{})
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/me":
			http.Redirect(w, r, other.URL+"/api/v1/me", http.StatusFound)
		case "/api/v1/same":
			http.Redirect(w, r, "/api/v1/me-here", http.StatusMovedPermanently)
		case "/api/v1/me-here":
			r.URL.Path = "/api/v1/me"
			r.RequestURI = "/api/v1/me"
			s.Handler.ServeHTTP(w, r)
		}
	}))
	defer redirector.Close()

	hc := &http.Client{}
	c := newClient(t, redirector.URL, tokA, api.WithHTTPClient(hc))
	u, _, err := c.Me(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if u.Name != "Elsewhere" {
		t.Fatalf("redirect not followed: %+v", u)
	}
	if a := gotAuth.Load(); a != "" {
		t.Errorf("the other origin got Authorization %q", a)
	}
	if hc.CheckRedirect != nil {
		t.Error("WithHTTPClient modified the caller's http.Client")
	}

	// A redirect within the origin keeps the token.
	req, _ := c.NewRequest(ctx(t), "same", nil)
	var same api.User
	if _, err := c.Do(req, &same); err != nil || same.ID != "u-a" {
		t.Errorf("same-origin redirect: %+v, %v (the token was dropped?)", same, err)
	}
}

func TestSameOriginRule(t *testing.T) {
	// Redirect to the same host name on another port: the sandbox behind
	// the second server must answer 401, since no token reaches it.
	s := serve(t, tinyDataset(t), sandbox.Options{})
	redirector := httptest.NewServer(http.RedirectHandler(s.BaseURL()+"/api/v1/me", http.StatusTemporaryRedirect))
	defer redirector.Close()
	c := newClient(t, redirector.URL, tokA)
	_, _, err := c.Me(ctx(t))
	if !errors.Is(err, api.ErrUnauthorized) {
		t.Errorf("Me through a cross-port redirect = %v, want 401 (token stripped)", err)
	}
	noToken(t, err, tokA)
	if got := s.last(t).Header.Get("Authorization"); got != "" {
		t.Errorf("the other port got Authorization %q", got)
	}
}

func TestCallersCheckRedirectStillRuns(t *testing.T) {
	var calls atomic.Int32
	stop := errors.New("no redirects here")
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		calls.Add(1)
		return stop
	}}
	srv := httptest.NewServer(http.RedirectHandler("/elsewhere", http.StatusFound))
	defer srv.Close()
	c := newClient(t, srv.URL, "tok", api.WithHTTPClient(hc))
	_, _, err := c.Me(ctx(t))
	if !errors.Is(err, stop) || calls.Load() != 1 {
		t.Errorf("Me = %v after %d CheckRedirect calls; want the caller's error after one", err, calls.Load())
	}
	if api.Retryable(err) {
		t.Errorf("Retryable(%v) = true", err)
	}
}

func TestRedirectLoopStops(t *testing.T) {
	srv := httptest.NewServer(http.RedirectHandler("/api/v1/me", http.StatusFound))
	defer srv.Close()
	c := newClient(t, srv.URL, "tok")
	_, _, err := c.Me(ctx(t))
	if err == nil || !strings.Contains(err.Error(), "redirects") || api.Retryable(err) {
		t.Errorf("Me through a redirect loop = %v (retryable %v)", err, api.Retryable(err))
	}
}

func TestUsesTheGivenTransport(t *testing.T) {
	var n atomic.Int32
	base := http.DefaultTransport
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		n.Add(1)
		return base.RoundTrip(r)
	})}
	c, _ := setup(t, tinyDataset(t), tokA, api.WithHTTPClient(hc))
	if _, _, err := c.Me(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 1 {
		t.Errorf("the injected transport carried %d requests, want 1", n.Load())
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestETagCache(t *testing.T) {
	cache := newMemCache()
	c, s := setup(t, tinyDataset(t), tokA, api.WithCache(cache))
	opts := api.ResolveOptions{Variant: "District", Locale: "es"}

	first, resp1, err := c.Resolved(ctx(t), "b1", opts)
	if err != nil {
		t.Fatal(err)
	}
	if resp1.StatusCode != 200 || resp1.NotModified || resp1.ETag == "" {
		t.Fatalf("first answer: %d NotModified=%v ETag=%q", resp1.StatusCode, resp1.NotModified, resp1.ETag)
	}
	if s.last(t).Header.Get("If-None-Match") != "" {
		t.Error("the first request carried If-None-Match")
	}
	key := prefix + "/api/v1/curricula/b1/resolved?locale=es&variant=District"
	if got := cache.keys(); !reflect.DeepEqual(got, []string{key}) {
		t.Errorf("cache keys = %q, want %q", got, key)
	}

	second, resp2, err := c.Resolved(ctx(t), "b1", opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.last(t).Header.Get("If-None-Match"); got != resp1.ETag {
		t.Errorf("If-None-Match = %q, want %q", got, resp1.ETag)
	}
	if resp2.StatusCode != http.StatusNotModified || !resp2.NotModified || resp2.ETag != resp1.ETag || string(resp2.Body) != string(resp1.Body) {
		t.Errorf("second answer: %d NotModified=%v ETag=%q, %d bytes", resp2.StatusCode, resp2.NotModified, resp2.ETag, len(resp2.Body))
	}
	if !reflect.DeepEqual(first, second) {
		t.Error("the value decoded from the cache differs from the first")
	}

	// An upstream change: a new body and ETag, stored in place of the old.
	err = s.Handler.Edit(func(ds *dataset.Dataset) error {
		ds.Curricula[2].Name = "District 9"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	third, resp3, err := c.Resolved(ctx(t), "b1", api.ResolveOptions{Variant: "District 9", Locale: "es"})
	if err != nil {
		t.Fatal(err)
	}
	if resp3.NotModified || third.Name != "District 9" {
		t.Errorf("after the change: NotModified=%v name %q", resp3.NotModified, third.Name)
	}
	_, resp4, err := c.Resolved(ctx(t), "b1", api.ResolveOptions{})
	if err != nil || resp4.NotModified {
		t.Errorf("another path: NotModified=%v, %v", resp4.NotModified, err)
	}
	if n := len(cache.keys()); n != 3 {
		t.Errorf("cache has %d entries, want 3", n)
	}
}

func TestCacheSkipsBadAnswers(t *testing.T) {
	for _, faults := range []string{"html=1", "invalid-json=1", "500=1", "cut=1"} {
		t.Run(faults, func(t *testing.T) {
			cache := newMemCache()
			s := faulty(t, faults)
			c := newClient(t, s.BaseURL(), sampleToken, api.WithCache(cache))
			if _, _, err := c.Me(ctx(t)); err == nil {
				t.Fatal("no error")
			}
			if cache.puts != 0 {
				t.Errorf("%d bodies stored", cache.puts)
			}
		})
	}
}

func TestCachePutErrorIsReported(t *testing.T) {
	cache := newMemCache()
	cache.putErr = errors.New("disk full")
	c, _ := setup(t, tinyDataset(t), tokA, api.WithCache(cache))
	u, resp, err := c.Me(ctx(t))
	if !errors.Is(err, cache.putErr) || !strings.Contains(err.Error(), "GET "+prefix+"/api/v1/me") {
		t.Errorf("Me = %v, want the cache error naming the request", err)
	}
	if u != nil || resp == nil || resp.StatusCode != 200 {
		t.Errorf("Me = %v, %+v", u, resp)
	}
}

func TestDamagedCacheEntryIsFetchedAgain(t *testing.T) {
	cache := newMemCache()
	c, s := setup(t, tinyDataset(t), tokA, api.WithCache(cache))
	if _, _, err := c.Me(ctx(t)); err != nil {
		t.Fatal(err)
	}
	key := prefix + "/api/v1/me"
	e := cache.entries[key]
	cache.entries[key] = memEntry{etag: e.etag, body: e.body[:len(e.body)/2]} // a torn write
	u, resp, err := c.Me(ctx(t))
	if err != nil || u.ID != "u-a" || resp.NotModified {
		t.Fatalf("Me = %+v, %+v, %v", u, resp, err)
	}
	reqs := s.requests()
	if len(reqs) != 3 || reqs[1].Header.Get("If-None-Match") == "" || reqs[2].Header.Get("If-None-Match") != "" {
		t.Errorf("requests: %+v; want a conditional one, then a plain one", reqs)
	}
	if string(cache.entries[key].body) != string(e.body) {
		t.Error("the damaged entry was not replaced")
	}
}

func TestNotModifiedWithoutCacheEntry(t *testing.T) {
	srv := fixed(t, map[string]http.HandlerFunc{"me": func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotModified)
	}})
	for _, opts := range [][]api.Option{nil, {api.WithCache(newMemCache())}} {
		c := newClient(t, srv.URL, "tok", opts...)
		_, resp, err := c.Me(ctx(t))
		if err == nil || !strings.Contains(err.Error(), "304") || resp == nil || resp.StatusCode != 304 {
			t.Errorf("Me = %+v, %v; want an error about the 304", resp, err)
		}
	}
}

func TestMaxBodyBytes(t *testing.T) {
	c, _ := setup(t, sampleDataset(t), sampleToken, api.WithMaxBodyBytes(4<<10))
	if _, _, err := c.Me(ctx(t)); err != nil {
		t.Fatalf("a small body: %v", err)
	}
	_, _, err := c.Resolved(ctx(t), "101", api.ResolveOptions{})
	if !errors.Is(err, api.ErrBodyTooLarge) || !strings.Contains(err.Error(), "4 KiB") || api.Retryable(err) {
		t.Errorf("a large body: %v (retryable %v); want ErrBodyTooLarge naming 4 KiB", err, api.Retryable(err))
	}

	// Without a Content-Length, the limit holds while reading.
	srv := fixed(t, map[string]http.HandlerFunc{"me": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"data":{"id":"u","attributes":{"name":"`)
		w.(http.Flusher).Flush()
		fmt.Fprint(w, strings.Repeat("x", 300)+`"}}}`)
	}})
	c = newClient(t, srv.URL, "tok", api.WithMaxBodyBytes(256))
	if _, _, err := c.Me(ctx(t)); !errors.Is(err, api.ErrBodyTooLarge) || !strings.Contains(err.Error(), "256 bytes") {
		t.Errorf("a streamed large body: %v", err)
	}
	c = newClient(t, srv.URL, "tok", api.WithMaxBodyBytes(1024))
	if u, _, err := c.Me(ctx(t)); err != nil || len(u.Name) != 300 {
		t.Errorf("under the limit: %v", err)
	}
}

// TestOverSandboxTransport drives the sandbox without sockets, as tests in
// a testing/synctest bubble do. The host must still be a loopback name (or
// WithAllowHTTP given).
func TestOverSandboxTransport(t *testing.T) {
	h, err := sandbox.New(tinyDataset(t), sandbox.Options{Limits: ratelimit.Limits{}, Faults: mustFaults(t, "cut=0.5")})
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: &sandboxtest.Transport{Handler: h}}
	if _, err := api.New("http://sandbox", tokA, api.WithHTTPClient(hc)); err == nil {
		t.Error("http://sandbox accepted without WithAllowHTTP")
	}
	c := newClient(t, "http://localhost", tokA, api.WithHTTPClient(hc))
	ok, cut := 0, 0
	for range 20 {
		_, _, err := c.Resolved(ctx(t), "b1", api.ResolveOptions{})
		switch {
		case err == nil:
			ok++
		case errors.Is(err, io.ErrUnexpectedEOF) && api.Retryable(err):
			cut++
		default:
			t.Fatalf("Resolved: %v", err)
		}
	}
	if ok == 0 || cut == 0 {
		t.Errorf("%d answers and %d cut bodies; want some of each", ok, cut)
	}
}

// TestConcurrentUse shares one Client and Cache between goroutines (run
// with -race).
func TestConcurrentUse(t *testing.T) {
	cache := newMemCache()
	c, _ := setup(t, sampleDataset(t), sampleToken, api.WithCache(cache))
	ids := []string{"101", "111", "112", "113", "curriculum_201", "curriculum_211", "curriculum_212"}
	errs := make(chan error, 4*len(ids))
	for round := range 4 {
		for _, id := range ids {
			go func() {
				r, _, err := c.Resolved(ctx(t), id, api.ResolveOptions{Locale: []string{"en", "es", "ar", "ja"}[round]})
				if err == nil && r.ID != id {
					err = fmt.Errorf("resolved %s, asked for %s", r.ID, id)
				}
				errs <- err
			}()
		}
	}
	for range 4 * len(ids) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
