package etagcache_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/etagcache"
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
		want etagcache.Scope
	}{
		{"https://API.example.org", org, etagcache.Scope{Origin: "https://api.example.org:443", Identity: "organization org-7"}},
		{"https://api.example.org:443/", org, etagcache.Scope{Origin: "https://api.example.org:443", Identity: "organization org-7"}},
		{"http://127.0.0.1:8080/curriculum/", org, etagcache.Scope{Origin: "http://127.0.0.1:8080/curriculum", Identity: "organization org-7"}},
		{"http://[::1]/x", &api.User{ID: "u1"}, etagcache.Scope{Origin: "http://[::1]:80/x", Identity: "user u1"}},
	}
	for _, tt := range tests {
		got, err := etagcache.ScopeOf(mustURL(t, tt.base), tt.user)
		if err != nil || got != tt.want {
			t.Errorf("ScopeOf(%s, %+v) = %+v, %v; want %+v", tt.base, tt.user, got, err, tt.want)
		}
	}
	if _, err := etagcache.ScopeOf(mustURL(t, "https://a.example"), &api.User{}); err == nil {
		t.Error("a /me with no user and no organization was given a scope")
	}
}

// TestScopedCacheSeparatesScopes: two servers with the same paths, and two
// organizations of one server, never see each other's entries; an entry
// put before Bind (the answer to /me) is carried into the scope.
func TestScopedCacheSeparatesScopes(t *testing.T) {
	dir := t.TempDir()
	bind := func(base string, u *api.User) *etagcache.ScopedCache {
		t.Helper()
		c, err := etagcache.NewScopedCache(dir, mustURL(t, base))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := c.Get("/api/v1/curricula/1/resolved"); ok {
			t.Errorf("%s: an unbound cache answered a tree", base)
		}
		if err := c.Put("/api/v1/me", `"me"`, []byte(`{"data":{}}`)); err != nil {
			t.Fatal(err)
		}
		s, err := etagcache.ScopeOf(mustURL(t, base), u)
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
	dirOf, s, ok, err := etagcache.LatestScope(dir)
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
