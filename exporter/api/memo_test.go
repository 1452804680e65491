package api_test

import (
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/sandbox"
)

// TestDecodedMemo: with a memo, reading the same cached answer again
// returns the curriculum decoded the first time (its nodes shared); another scope, a client
// without the memo, or a memo too small to hold the answer decode anew.
func TestDecodedMemo(t *testing.T) {
	s := serve(t, sampleDataset(t), sandbox.Options{})
	cache := newMemCache()
	opts := api.ResolveOptions{Variant: "Texas", Locale: "es"}
	filler := newClient(t, s.BaseURL(), sampleToken, api.WithCache(cache))
	if _, _, err := filler.Resolved(ctx(t), "101", opts); err != nil {
		t.Fatal(err)
	}
	memo := api.NewDecodedMemo(0)
	read := func(c *api.Client) *api.ResolvedCurriculum {
		t.Helper()
		r, resp, err := c.CachedResolved("101", opts)
		if err != nil {
			t.Fatal(err)
		}
		if !resp.NotModified || resp.ETag == "" || len(resp.Body) == 0 {
			t.Fatalf("response %+v: want the cached answer with its ETag and body", resp)
		}
		return r
	}
	a := newClient(t, s.BaseURL(), sampleToken, api.WithCache(cache), api.WithDecodedMemo(memo, "scope-a"))
	first := read(a)
	if first.Name != "Texas" || len(first.Nodes) == 0 {
		t.Fatalf("decoded %q with %d nodes", first.Name, len(first.Nodes))
	}
	for _, tc := range []struct {
		name string
		c    *api.Client
		same bool
	}{
		{"the same client", a, true},
		{"another client of the scope", newClient(t, s.BaseURL(), sampleToken, api.WithCache(cache), api.WithDecodedMemo(memo, "scope-a")), true},
		{"another scope", newClient(t, s.BaseURL(), sampleToken, api.WithCache(cache), api.WithDecodedMemo(memo, "scope-b")), false},
		{"no memo", newClient(t, s.BaseURL(), sampleToken, api.WithCache(cache)), false},
		{"a memo too small", newClient(t, s.BaseURL(), sampleToken, api.WithCache(cache), api.WithDecodedMemo(api.NewDecodedMemo(10), "scope-a")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := read(tc.c); sameNodes(got, first) != tc.same {
				t.Errorf("the nodes of the first read: %v, want %v", sameNodes(got, first), tc.same)
			}
		})
	}
	// Resolved's answer to a 304 (the server's tree has not changed) is
	// the cached body, from the memo too.
	r, resp, err := a.Resolved(ctx(t), "101", opts)
	if err != nil || !resp.NotModified {
		t.Fatalf("Resolved: %v, not modified %v; want a 304", err, resp != nil && resp.NotModified)
	}
	if !sameNodes(r, first) {
		t.Error("Resolved's 304 decoded the cached body again")
	}
	// A new answer in the cache (a new ETag) is decoded, and replaces the
	// old one in the memo.
	for key, e := range cache.entries {
		cache.entries[key] = memEntry{etag: `"changed"`, body: e.body}
	}
	changed := read(a)
	if sameNodes(changed, first) {
		t.Error("an answer with a new ETag came from the memo")
	}
	if again := read(a); !sameNodes(again, changed) {
		t.Error("the new answer was not kept")
	}
}

// sameNodes reports whether a and b share their nodes: one decode.
func sameNodes(a, b *api.ResolvedCurriculum) bool {
	return len(a.Nodes) > 0 && len(b.Nodes) > 0 && &a.Nodes[0] == &b.Nodes[0]
}
