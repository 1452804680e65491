package exporter_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// treeRequests is a transport that records every /resolved request, and
// apart those whose answer was read to its end.
type treeRequests struct {
	mu       sync.Mutex
	seen     []string
	answered []string
}

func (c *treeRequests) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.URL.Path, "/resolved") {
		return http.DefaultTransport.RoundTrip(req)
	}
	uri := req.URL.RequestURI()
	c.mu.Lock()
	c.seen = append(c.seen, uri)
	c.mu.Unlock()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		resp.Body = &answerBody{ReadCloser: resp.Body, done: func() {
			c.mu.Lock()
			c.answered = append(c.answered, uri)
			c.mu.Unlock()
		}}
	}
	return resp, err
}

// answerBody calls done once its body has been read to the end.
type answerBody struct {
	io.ReadCloser
	done func()
	once sync.Once
}

func (b *answerBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(b.done)
	}
	return n, err
}

// take returns the requests recorded since the last call.
func (c *treeRequests) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.seen
	c.seen, c.answered = nil, nil
	slices.Sort(out)
	return out
}

// takeAnswered returns the requests whose answer was read to its end
// since the last call (and forgets every request recorded).
func (c *treeRequests) takeAnswered() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.answered
	c.seen, c.answered = nil, nil
	slices.Sort(out)
	return out
}

func nightlyConfig(t *testing.T, url string, p fresh.Policy) (exporter.Config, *treeRequests) {
	tr := &treeRequests{}
	return exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "out"), CacheDir: t.TempDir(),
		Limits: ratelimit.Limits{}, Generator: "curex test", Formats: []string{"json"}, Revalidate: p, Transport: tr}, tr
}

// TestChangeDetection: an edit that moves a curriculum's updated_at is
// seen from the curricula list, and only the trees it shapes (the variant
// edited and the variant of it, in every locale) are fetched, first; the
// rest cost no request. A translation fixed without any signal moving is
// missed by the signals alone and found by revalidation.
func TestChangeDetection(t *testing.T) {
	t.Parallel()
	h, url := sampleServer(t, sandbox.Options{})
	cfg, tr := nightlyConfig(t, url, fresh.Policy{Mode: fresh.Never})
	first, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tr.take()); n != first.Planned || first.Schedule.Count(fresh.New) != first.Planned {
		t.Fatalf("first run: %d tree requests, %d new, want all %d", n, first.Schedule.Count(fresh.New), first.Planned)
	}

	// Texas changes an override; Houston ISD is a variant of Texas.
	if err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Curricula {
			if c := &ds.Curricula[i]; c.Name == "Texas" {
				c.Overrides[0].Title = "Revised by Texas"
				return nil
			}
		}
		return errors.New("no Texas in the sample")
	}); err != nil {
		t.Fatal(err)
	}
	second, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := tr.take()
	if len(got) == 0 {
		t.Fatal("the edit was not seen: no tree fetched")
	}
	for _, u := range got {
		if !strings.Contains(u, "variant=Texas") && !strings.Contains(u, "variant=Houston") {
			t.Errorf("fetched %s, which the edit did not change", u)
		}
	}
	var want int
	for _, e := range second.Schedule.Fetch {
		if e.Export.Variant == "Texas" || e.Export.Variant == "Houston ISD" {
			want++
		}
	}
	if len(got) != want || second.Schedule.Count(fresh.Changed) != want || want == 0 {
		t.Errorf("fetched %d trees, %d changed; want the %d of Texas and Houston ISD", len(got), second.Schedule.Count(fresh.Changed), want)
	}
	if second.Schedule.Count(fresh.Unchanged) != second.Planned-want {
		t.Errorf("%d served from the cache, want %d", second.Schedule.Count(fresh.Unchanged), second.Planned-want)
	}
	if second.Partial() {
		t.Errorf("failures: %v", second.Failures)
	}

	// A Spanish translation of Algebra 1 is fixed: no updated_at moves,
	// no progress changes.
	if err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Curricula {
			if c := &ds.Curricula[i]; c.Name == "Algebra 1" {
				tr, ok := c.Translations["es"]["alg-u1-l1"] // a published translation
				if !ok {
					break
				}
				tr.Title += " (corregido)"
				c.Translations["es"]["alg-u1-l1"] = tr
				return nil
			}
		}
		return errors.New("no Spanish translation of Algebra 1")
	}); err != nil {
		t.Fatal(err)
	}
	third, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.take(); len(got) != 0 || third.Schedule.Count(fresh.Unchanged) != third.Planned {
		t.Errorf("with --revalidate never the signals decide: %d fetched, want 0", len(got))
	}
	cfg.Revalidate = fresh.Policy{Mode: fresh.Always}
	fourth, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tr.take()); n != fourth.Planned || fourth.Stats.OK == 0 {
		t.Errorf("revalidating every tree: %d fetched (%d answered 200), want %d and the Spanish trees anew", n, fourth.Stats.OK, fourth.Planned)
	}
}

// TestResumeAfterBudget: a run cut short by --max-requests is carried on
// by the next, which fetches only what the first did not.
func TestResumeAfterBudget(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	cfg, tr := nightlyConfig(t, url, fresh.DefaultPolicy())
	cfg.Concurrency = 1
	cfg.MaxRequests = 6 + 10 // discovery, then 10 trees
	first, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	fetched := tr.take()
	if len(fetched) != 10 || first.NotFetched != first.Planned-10 || !first.Partial() {
		t.Fatalf("first run: %d fetched, %d not fetched of %d", len(fetched), first.NotFetched, first.Planned)
	}
	cfg.MaxRequests = 0
	second, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rest := tr.take()
	if len(rest) != first.Planned-10 || second.Partial() {
		t.Errorf("second run fetched %d, want the %d left (failures %v)", len(rest), first.Planned-10, second.Failures)
	}
	for _, u := range rest {
		if slices.Contains(fetched, u) {
			t.Errorf("%s fetched again", u)
		}
	}
	checkBundles(t, cfg.Output, second.Planned)
}

// TestKilledRunRepeatsNothing: a run stopped half way (Ctrl-C, or killed
// at its deadline) commits nothing, but what it fetched is known: the next
// run asks for none of it again.
func TestKilledRunRepeatsNothing(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	cfg, tr := nightlyConfig(t, url, fresh.DefaultPolicy())
	cfg.Concurrency = 1
	ctx, cancel := context.WithCancel(context.Background())
	stop := &stopAfter{n: 8, cancel: cancel}
	cfg.Progress = stop
	if _, err := exporter.Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// A request the cancel cut before its answer was read is asked again:
	// only trees the first run was answered count (a request in flight
	// at the cancel is a matter of timing).
	fetched := tr.takeAnswered()
	if len(fetched) < 8 {
		t.Fatalf("only %d trees fetched before the stop", len(fetched))
	}
	cfg.Progress = nil
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rest := tr.take()
	for _, u := range rest {
		if slices.Contains(fetched, u) {
			t.Errorf("%s fetched again", u)
		}
	}
	if len(rest)+len(fetched) != sum.Planned || sum.Partial() {
		t.Errorf("%d + %d trees fetched, want %d in all (failures %v)", len(fetched), len(rest), sum.Planned, sum.Failures)
	}
	checkBundles(t, cfg.Output, sum.Planned)
}

// stopAfter cancels the run once n trees are done.
type stopAfter struct {
	mu     sync.Mutex
	n      int
	cancel context.CancelFunc
}

func (s *stopAfter) Planned(int, int, *pacer.Limiter) {}
func (s *stopAfter) TreeDone(fetch.Result, fetch.StatsSnapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n--; s.n == 0 {
		s.cancel()
	}
}

// TestRevalidationPastTheBudget: trees only due for revalidation that the
// budget does not reach are served from the cache, no failure; they stay
// the oldest, so the next run takes them first.
func TestRevalidationPastTheBudget(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	cfg, tr := nightlyConfig(t, url, fresh.Policy{Mode: fresh.Always})
	cfg.Concurrency = 1
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	tr.take()
	cfg.MaxRequests = 6 + 5 // discovery, then 5 revalidations
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	first := tr.take()
	if len(first) != 5 || sum.Partial() || sum.Written+sum.Reused != sum.Planned || sum.Schedule.Count(fresh.Due) != sum.Planned {
		t.Fatalf("%d revalidated, %d written, %d reused of %d, failures %v", len(first), sum.Written, sum.Reused, sum.Planned, sum.Failures)
	}
	checkBundles(t, cfg.Output, sum.Planned)
	// The next run, with the same budget, revalidates 5 others: the
	// oldest.
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	for _, u := range tr.take() {
		if slices.Contains(first, u) {
			t.Errorf("%s revalidated again before the trees that waited", u)
		}
	}
}
