package fetch_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/internal/setting"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// TestTreeCaps serves a tree of 50 nodes whose first title is 10,000
// bytes with a right-to-left override in it: by default the tree comes
// whole with the title cut to about 4 KiB, its override closed, and a
// warning; with MaxNodes 10 the tree fails alone after one request, not
// retried.
func TestTreeCaps(t *testing.T) {
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 1, Nodes: 50, Depth: 2, Seed: 1})
	c := &ds.Curricula[0]
	long := strings.Repeat("Long title ", 400) + "\u202Eevil" + strings.Repeat("é", 3000)
	c.Nodes[0].Title = long
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	tr := &countingTransport{base: &sandboxtest.Transport{Handler: h}}
	client, err := api.New("http://sandbox", dataset.SyntheticToken, api.WithAllowHTTP(), api.WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	e := model.Export{CurriculumID: c.ID, Locale: c.PrimaryLocale, CurriculumSlug: "c", VariantSlug: "base", LocaleSlug: "en"}
	fetchOne := func(f *fetch.Fetcher) fetch.Result {
		t.Helper()
		var got []fetch.Result
		if err := f.Fetch(context.Background(), []model.Export{e}, func(r fetch.Result) error { got = append(got, r); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Fatalf("%d results, want 1", len(got))
		}
		return got[0]
	}
	retry := retry.Policy{MaxAttempts: 3, Retryable: api.Retryable}

	var logs bytes.Buffer
	r := fetchOne(&fetch.Fetcher{Client: client, Retry: retry, Concurrency: 1, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if n := r.Tree.Count(); n != 50 {
		t.Errorf("the tree has %d nodes, want 50", n)
	}
	title := r.Tree.Nodes[0].Title
	if len(title) > fetch.MaxLineBytes+8 || !strings.HasPrefix(title, "Long title Long title") || !strings.Contains(title, "…") {
		t.Errorf("a %d-byte title became %d bytes (%q…), want it cut to about %d ending in …", len(long), len(title), title[:min(len(title), 40)], fetch.MaxLineBytes)
	}
	if fetch.PlainText(title) != title {
		t.Errorf("the cut title left a bidirectional control open")
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "texts=1") {
		t.Errorf("no warning of the cut title: %q", logs.String())
	}
	if !bytes.Contains(r.Body, []byte(strings.Repeat("é", 3000))) {
		t.Error("the raw body, kept for the cache, lost the long title")
	}

	before := tr.n.Load()
	r = fetchOne(&fetch.Fetcher{Client: client, Retry: retry, Concurrency: 1, MaxNodes: 10})
	var large *fetch.TreeTooLargeError
	if !errors.As(r.Err, &large) || large.Limit != 10 || r.Tree != nil {
		t.Fatalf("err = %v, tree %v; want a *TreeTooLargeError of limit 10 and no tree", r.Err, r.Tree != nil)
	}
	if se, ok := setting.Of(r.Err); !ok || se.Name != setting.MaxTreeNodes || !strings.Contains(r.Err.Error(), "more than 10 nodes") {
		t.Errorf("message %q does not say the limit and name the setting that raises it", r.Err)
	}
	if n := tr.n.Load() - before; n != 1 {
		t.Errorf("%d requests for a tree over the cap, want 1 (not retried)", n)
	}
}
