package fetch_test

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/sandbox"
)

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestScopeOf: the origin is normalized (case, default port, trailing
// slash) and keeps the path prefix; the identity is the organization, or
// the user when /me names none.
func TestScopeOf(t *testing.T) {
	org := &api.User{ID: "u1", OrganizationID: "org-7"}
	tests := []struct {
		base string
		user *api.User
		want fetch.Scope
	}{
		{"https://API.example.org", org, fetch.Scope{Origin: "https://api.example.org:443", Identity: "organization org-7"}},
		{"https://api.example.org:443/", org, fetch.Scope{Origin: "https://api.example.org:443", Identity: "organization org-7"}},
		{"http://127.0.0.1:8080/curriculum/", org, fetch.Scope{Origin: "http://127.0.0.1:8080/curriculum", Identity: "organization org-7"}},
		{"http://[::1]/x", &api.User{ID: "u1"}, fetch.Scope{Origin: "http://[::1]:80/x", Identity: "user u1"}},
	}
	for _, tt := range tests {
		got, err := fetch.ScopeOf(mustURL(t, tt.base), tt.user)
		if err != nil || got != tt.want {
			t.Errorf("ScopeOf(%s, %+v) = %+v, %v; want %+v", tt.base, tt.user, got, err, tt.want)
		}
	}
	if _, err := fetch.ScopeOf(mustURL(t, "https://a.example"), &api.User{}); err == nil {
		t.Error("a /me with no user and no organization was given a scope")
	}
}

// TestScopedCacheSeparatesScopes: two servers with the same paths, and two
// organizations of one server, never see each other's entries; an entry
// put before Bind (the answer to /me) is carried into the scope.
func TestScopedCacheSeparatesScopes(t *testing.T) {
	dir := t.TempDir()
	bind := func(base string, u *api.User) *fetch.ScopedCache {
		t.Helper()
		c, err := fetch.NewScopedCache(dir, mustURL(t, base))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := c.Get("/api/v1/curricula/1/resolved"); ok {
			t.Errorf("%s: an unbound cache answered a tree", base)
		}
		if err := c.Put("/api/v1/me", `"me"`, []byte(`{"data":{}}`)); err != nil {
			t.Fatal(err)
		}
		s, err := fetch.ScopeOf(mustURL(t, base), u)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Bind(s); err != nil {
			t.Fatal(err)
		}
		if _, _, ok := c.Get("/api/v1/me"); !ok {
			t.Errorf("%s: /me put before Bind is not in the scope", base)
		}
		return c
	}
	staging := bind("https://staging.example.org", &api.User{ID: "u1", OrganizationID: "o1"})
	if err := staging.Put("/api/v1/curricula/1/resolved", `"s"`, []byte("staging")); err != nil {
		t.Fatal(err)
	}
	for _, other := range []struct {
		base string
		user *api.User
	}{
		{"https://api.example.org", &api.User{ID: "u1", OrganizationID: "o1"}},          // production
		{"https://staging.example.org:8443", &api.User{ID: "u1", OrganizationID: "o1"}}, // another port
		{"https://staging.example.org/v2", &api.User{ID: "u1", OrganizationID: "o1"}},   // another path
		{"https://staging.example.org", &api.User{ID: "u1", OrganizationID: "o2"}},      // another organization
		{"https://staging.example.org", &api.User{ID: "u2"}},                            // a user with no organization
	} {
		c := bind(other.base, other.user)
		if _, body, ok := c.Get("/api/v1/curricula/1/resolved"); ok {
			t.Errorf("%s %+v sees staging's tree %q", other.base, other.user, body)
		}
	}
	again := bind("https://STAGING.example.org:443/", &api.User{ID: "u9", OrganizationID: "o1"})
	if _, body, ok := again.Get("/api/v1/curricula/1/resolved"); !ok || string(body) != "staging" {
		t.Errorf("the same origin and organization lost its entry: %q, %v", body, ok)
	}
	dirOf, s, ok, err := fetch.LatestScope(dir)
	if err != nil || !ok || s.Identity != "organization o1" || s.Origin != "https://staging.example.org:443" || dirOf != again.Dir() {
		t.Errorf("LatestScope = %s, %+v, %v, %v; want the last bound", dirOf, s, ok, err)
	}
}

// TestMeOrganizationWherever: the organization of /me is read from meta or
// attributes, as an object, an id or organization_id.
func TestMeOrganizationWherever(t *testing.T) {
	for _, body := range []string{
		`{"data":{"id":"u1","type":"user","attributes":{"email":"a@b","name":"A"}},"meta":{"organization":{"id":"o5","name":"Five"}}}`,
		`{"data":{"id":"u1","type":"user","attributes":{"email":"a@b","name":"A"}},"meta":{"organization":"o5"}}`,
		`{"data":{"id":"u1","type":"user","attributes":{"email":"a@b","name":"A"}},"meta":{"organization_id":"o5"}}`,
		`{"data":{"id":"u1","type":"user","attributes":{"email":"a@b","name":"A","organization":{"id":"o5"}}}}`,
		`{"data":{"id":"u1","type":"user","attributes":{"email":"a@b","name":"A","organization_id":"o5"}}}`,
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(body))
		}))
		c, err := api.New(srv.URL, "tok", api.WithAllowHTTP())
		if err != nil {
			t.Fatal(err)
		}
		u, _, err := c.Me(context.Background())
		srv.Close()
		if err != nil || u.OrganizationID != "o5" {
			t.Errorf("%s: %+v, %v; want organization o5", body, u, err)
		}
	}
}

// fullDisk is a DiskCache whose writes of trees fail as on a full disk.
type fullDisk struct{ *fetch.DiskCache }

func (c fullDisk) Put(key, etag string, body []byte) error {
	if strings.Contains(key, "/resolved") {
		return &fs.PathError{Op: "write", Path: "/cache/ab/abcd", Err: syscall.ENOSPC}
	}
	return c.DiskCache.Put(key, etag, body)
}

// TestCacheWriteErrorStopsTheRun: a tree that cannot be stored in the
// ETag cache (a full disk) stops the fetch at once: no retry of it, and
// no request for the trees after it (before: each tree was retried 6
// times as if the connection had failed).
func TestCacheWriteErrorStopsTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		disk, err := fetch.OpenDiskCache(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		ct := &countingTransport{base: &sandbox.Transport{Handler: trHandler(t, sandbox.Options{})}}
		client, err := api.New("http://sandbox.test", trToken, api.WithHTTPClient(&http.Client{Transport: ct}),
			api.WithAllowHTTP(), api.WithCache(fullDisk{disk}))
		if err != nil {
			t.Fatal(err)
		}
		retry := fetch.RetryPolicy{Retryable: api.Retryable}
		plan, err := fetch.Discover(context.Background(), client, retry, fetch.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		before := ct.n.Load()
		f := &fetch.Fetcher{Client: client, Retry: retry, Concurrency: 1}
		err = f.Fetch(context.Background(), plan.Exports(), func(fetch.Result) error { return nil })
		if n := ct.n.Load() - before; n > 2 {
			t.Errorf("%d tree requests with a full disk, want at most 2 (one, and one in flight)", n)
		}
		if !errors.Is(err, fetch.ErrFatal) || !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("err = %v, want ErrFatal wrapping the full disk", err)
		}
	})
}
