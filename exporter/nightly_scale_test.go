package exporter_test

import (
	"flag"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/spf13/afero"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/race"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

var scaleCurricula = flag.Int("scale-curricula", 500, "TestNightlyAtScale: base curricula of the synthetic organization (5 variants × 10 locales each); at most 5 under -race")

// orderedTrees records the /resolved requests a handler answers, in order.
type orderedTrees struct {
	next http.Handler
	mu   sync.Mutex
	seen []string
	all  int
}

func (o *orderedTrees) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	o.all++
	if strings.HasSuffix(r.URL.Path, "/resolved") {
		o.seen = append(o.seen, r.URL.RequestURI())
	}
	o.mu.Unlock()
	o.next.ServeHTTP(w, r)
}

func (o *orderedTrees) take() (trees []string, all int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	trees, all = o.seen, o.all
	o.seen, o.all = nil, 0
	return trees, all
}

// TestNightlyAtScale runs nightly exports of a synthetic organization of
// 25,000 trees (500 curricula × 5 variants × 10 locales) under the API's
// real limits, in virtual time: a first full export, then no-change
// nights, then a night where 1 % of the trees changed. It checks that a
// no-change night costs at most the discovery requests plus the rolling
// share, that the changed trees are fetched first and no other changed,
// and that every tree is revalidated within the window. The figures it
// logs are those of docs/BENCHMARKS.md (go test -run TestNightlyAtScale -v).
func TestNightlyAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	n := *scaleCurricula
	if race.Enabled {
		n = min(n, 5) // make test runs the full scale once without -race (make nightly)
	}
	synctest.Test(t, func(t *testing.T) { nightlyAtScale(t, n) })
}

func nightlyAtScale(t *testing.T, curricula int) {
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: curricula, Variants: 4, Locales: 10, Nodes: 2, Depth: 1, Seed: 8})
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Default()})
	if err != nil {
		t.Fatal(err)
	}
	rec := &orderedTrees{next: h}
	cfg := exporter.Config{
		BaseURL: "http://localhost", Token: dataset.SyntheticToken, Output: "/out", Fs: afero.NewMemMapFs(),
		CacheDir: filepath.Join(t.TempDir(), "cache"), Limits: ratelimit.Default(), Generator: "curex test",
		Formats: []string{"json"}, Transport: &sandboxtest.Transport{Handler: rec},
	}
	window := fresh.DefaultWindow
	trees := curricula * 5 * 10
	revalidated := map[string]int{} // tree request -> nights it was asked for, after the first
	night := func(name string) (*exporter.Summary, []string, int, time.Duration) {
		t.Helper()
		start := time.Now()
		sum, err := exporter.Run(t.Context(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sum.Partial() || sum.Planned != trees {
			t.Fatalf("%s: %d planned, failures %v", name, sum.Planned, sum.Failures[:min(3, len(sum.Failures))])
		}
		got, all := rec.take()
		took := time.Since(start)
		t.Logf("%-22s %6d requests (%5d trees: %5d new, %4d changed, %5d revalidated; %5d from the cache), %4.1f h of budget, %v",
			name, all, len(got), sum.Schedule.Count(fresh.New), sum.Schedule.Count(fresh.Changed), sum.Schedule.Count(fresh.Due),
			sum.Schedule.Count(fresh.Unchanged), float64(all)/1000, took.Round(time.Minute))
		return sum, got, all, took
	}
	// Runs start every night at the same time, or at once when the last
	// one ran past it.
	next := time.Now()
	wait := func() {
		for !next.After(time.Now()) {
			next = next.Add(24 * time.Hour)
		}
		time.Sleep(time.Until(next))
	}

	start := time.Now()
	first, got, _, took := night("night 1 (first export)")
	if len(got) != trees || first.Schedule.Count(fresh.New) != trees {
		t.Fatalf("first night fetched %d trees, want all %d", len(got), trees)
	}
	discovery := first.Stats.Requests - int64(trees)
	t.Logf("discovery: %d requests; the first export took %v", discovery, took.Round(time.Minute))

	// No change for 8 nights: each costs discovery plus its share, and
	// after the window every tree has been revalidated. The share is the
	// part of the window since the last run (a seventh a night), give or
	// take the rounding: each run rounds down, and the trees that would
	// pass the window are all taken, so the last night of a window takes
	// what the rounding left, at most one tree per night of the window.
	last := start
	for i := 2; i <= 9; i++ {
		wait()
		elapsed := time.Since(last)
		last = time.Now()
		sum, got, all, _ := night(fmt.Sprintf("night %d (no change)", i))
		share := trees*int(min(elapsed, window))/int(window) + int(window/(24*time.Hour))
		if len(got) > share || int64(all) > discovery+int64(share) {
			t.Errorf("night %d: %d requests, %d of them trees; want at most %d + the share %d (%v since the last run)", i, all, len(got), discovery, share, elapsed.Round(time.Minute))
		}
		if sum.Schedule.Count(fresh.New)+sum.Schedule.Count(fresh.Changed) != 0 {
			t.Errorf("night %d: nothing changed, but %d trees are new or changed", i, sum.Schedule.Count(fresh.New)+sum.Schedule.Count(fresh.Changed))
		}
		if sum.Stats.OK != discovery-sum.Stats.NotModified && sum.Stats.OK > discovery {
			t.Errorf("night %d: %d answers 200 with nothing changed", i, sum.Stats.OK)
		}
		for _, u := range got {
			revalidated[u]++
		}
	}
	if len(revalidated) != trees {
		t.Errorf("after %v of nights %d of %d trees were revalidated", 8*24*time.Hour, len(revalidated), trees)
	}

	// 1 % of the trees change: five curricula of the full shape are
	// edited (every variant of them, in every locale: 5 × 50 trees).
	changed := map[string]bool{}
	if err := h.Edit(func(ds *dataset.Dataset) error {
		n := 0
		for i := range ds.Curricula {
			c := &ds.Curricula[i]
			if c.Parent == "" && c.Shape != dataset.ShapeAlternate && n < max(1, trees/100/50) {
				c.Nodes[0].Title += " (revised)"
				changed[c.ID] = true
				n++
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	wait()
	// With several workers, the order in which requests reach the server
	// depends on goroutine scheduling: when the limiter has room for a
	// burst, a worker descheduled between taking its tree and sending it
	// can be overtaken by any number of requests, so no slack is safe on
	// a loaded machine. One worker sends trees exactly in schedule order.
	cfg.Concurrency = 1
	sum, got, _, _ := night("night 10 (1 % changed)")
	want := len(changed) * 50
	if sum.Schedule.Count(fresh.Changed) != want {
		t.Errorf("%d trees changed, want %d", sum.Schedule.Count(fresh.Changed), want)
	}
	// The changed trees go first, all of them before any other.
	if len(got) < want {
		t.Fatalf("only %d trees fetched, want the %d changed first", len(got), want)
	}
	seen := 0
	for i, u := range got {
		id := strings.TrimPrefix(u, "/api/v1/curricula/")
		id = id[:strings.IndexByte(id, '/')]
		switch {
		case changed[id]:
			seen++
			if i >= want {
				t.Errorf("changed tree %s fetched %dth, after trees that did not change", u, i+1)
			}
		case i < want:
			t.Errorf("among the first %d trees fetched: %s, which did not change", want, u)
		}
	}
	if seen != want {
		t.Errorf("%d changed trees fetched, want %d", seen, want)
	}
	if sum.Stats.OK < int64(want) {
		t.Errorf("%d answers 200, want at least the %d changed trees", sum.Stats.OK, want)
	}
}
