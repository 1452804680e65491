package exporter_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/spf13/afero"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/testtrees"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// The virtual-time benchmarks of this file run their workload in a
// testing/synctest bubble, which needs a *testing.T: each benchmark runs a
// test of this file in a child process (as BenchmarkLimiterSchedule does)
// and reports the figures the test prints. The tests skip unless
// benchMetricsEnv is set, so that `go test ./...` does not pay for them;
// `CUREX_BENCH_METRICS=1 go test -run TestQuotaSecondConsumer -v ./exporter/`
// runs one directly. A failed assertion fails the benchmark.
const benchMetricsEnv = "CUREX_BENCH_METRICS"

// benchFigures collects a test's figures for its benchmark.
type benchFigures struct {
	names  []string
	values []float64
}

func (f *benchFigures) add(name string, v float64) {
	f.names = append(f.names, name)
	f.values = append(f.values, v)
}

// emit logs the figures and, for the benchmark, prints them.
func (f *benchFigures) emit(t *testing.T) {
	for i, n := range f.names {
		t.Logf("%-22s %g", n, f.values[i])
		if os.Getenv(benchMetricsEnv) != "" {
			fmt.Printf("METRIC %s %g\n", n, f.values[i])
		}
	}
}

func skipUnlessBench(t *testing.T, bench string) {
	if os.Getenv(benchMetricsEnv) == "" {
		t.Skipf("run by %s (go test -run '^$' -bench %s ./exporter/), or set %s=1", bench, bench, benchMetricsEnv)
	}
}

// benchInChild runs test in a child process and reports its figures; ns/op
// is the real time of the whole virtual-time run.
func benchInChild(b *testing.B, test string) {
	var out []byte
	for b.Loop() {
		cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), benchMetricsEnv+"=1")
		var err error
		if out, err = cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", test, err, out)
		}
	}
	testtrees.ReportMetrics(b, out)
}

// otherClientHeader marks the requests of the client sharing the quota.
const otherClientHeader = "X-Bench-Client"

// exchange is one request as the sandbox saw it.
type exchange struct {
	at     time.Time // arrival, when the server counts it
	other  bool      // sent by the other client
	uri    string
	status int
}

// exchangeLog records every request a handler answers, in arrival order.
type exchangeLog struct {
	next http.Handler
	mu   sync.Mutex
	ex   []exchange
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (l *exchangeLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	i := len(l.ex)
	l.ex = append(l.ex, exchange{at: time.Now(), other: r.Header.Get(otherClientHeader) != "", uri: r.URL.RequestURI()})
	l.mu.Unlock()
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		l.mu.Lock()
		l.ex[i].status = sw.status
		l.mu.Unlock()
	}()
	l.next.ServeHTTP(sw, r)
}

// take returns the exchanges recorded since the last take.
func (l *exchangeLog) take() []exchange {
	l.mu.Lock()
	defer l.mu.Unlock()
	ex := l.ex
	l.ex = nil
	return ex
}

// planCatcher is the Progress of a run: it keeps the moment discovery
// ended, the run's limiter and the ETA the progress line prints.
type planCatcher struct {
	mu       sync.Mutex
	at       time.Time
	requests int
	eta      time.Duration
	limiter  *pacer.Limiter
}

func (p *planCatcher) Planned(_, requests int, l *pacer.Limiter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.at, p.requests, p.eta, p.limiter = time.Now(), requests, l.ETA(requests), l
}

func (p *planCatcher) TreeDone(fetch.Result, fetch.StatsSnapshot) {}

// sharedMinimum is the shortest span in which n requests of ours, the first
// at start, fit the limits beside the other client's requests at the times
// it made them: each of ours at the earliest moment at which no window,
// later requests of the other client included, holds more than its limit.
// Without other requests it is greedyMinimum on the exact windows.
func sharedMinimum(ls ratelimit.Limits, others []time.Time, start time.Time, n int) time.Duration {
	ev := slices.Clone(others)
	slices.SortFunc(ev, time.Time.Compare)
	t, last := start, start
	for range n {
		t = earliestFit(ls, ev, t)
		i, _ := slices.BinarySearchFunc(ev, t, time.Time.Compare)
		ev = slices.Insert(ev, i, t)
		last = t
	}
	return last.Sub(start)
}

// earliestFit returns the earliest moment from t at which one more request
// fits every window over the sorted times ev. Whether it fits changes only
// where a recorded request enters or leaves a window: just after one, or
// one window after one.
func earliestFit(ls ratelimit.Limits, ev []time.Time, t time.Time) time.Time {
	if fitsAt(ls, ev, t) {
		return t
	}
	var cands []time.Time
	for _, e := range ev {
		if c := e.Add(time.Nanosecond); c.After(t) {
			cands = append(cands, c)
		}
		for _, l := range ls {
			if c := e.Add(l.Window); c.After(t) {
				cands = append(cands, c)
			}
		}
	}
	slices.SortFunc(cands, time.Time.Compare)
	for _, c := range cands {
		if fitsAt(ls, ev, c) {
			return c
		}
	}
	panic("no moment fits") // past every window of the last request, one does
}

// fitsAt reports whether a request at t keeps every window (u-W, u] that
// would hold it within its limit.
func fitsAt(ls ratelimit.Limits, ev []time.Time, t time.Time) bool {
	// upTo returns how many recorded requests lie at or before x.
	upTo := func(x time.Time) int {
		i, found := slices.BinarySearchFunc(ev, x, time.Time.Compare)
		for found && i < len(ev) && ev[i].Equal(x) {
			i++
		}
		return i
	}
	for _, l := range ls {
		if upTo(t)-upTo(t.Add(-l.Window))+1 > l.Count {
			return false
		}
		for j := upTo(t); j < len(ev) && ev[j].Sub(t) < l.Window; j++ {
			u := ev[j]
			if upTo(u)-upTo(u.Add(-l.Window))+1 > l.Count {
				return false
			}
		}
	}
	return true
}

// TestQuotaSecondConsumer runs BenchmarkSecondConsumer's workload.
func TestQuotaSecondConsumer(t *testing.T) {
	skipUnlessBench(t, "BenchmarkSecondConsumer")
	synctest.Test(t, secondConsumer)
}

// BenchmarkSecondConsumer exports a synthetic organization (20 curricula ×
// 3 trees × 3 locales = 180 trees, JSON) under the API's real limits
// (60/1m,1000/1h per token, on both sides) while another client with the
// same token asks the same sandbox for /me every 4 s (15 a minute), from a
// minute before the export until it ends, in virtual time. It reports
// curex's requests and 429s, the cooldowns (runs of curex's 429s between
// successes) and 429s per cooldown, the mean and longest time from a
// cooldown's first 429 to curex's next success, the request span against
// the shortest span for curex's successful requests in the quota the
// other client leaves (sharedMinimum), and the busiest window of each limit
// with both clients counted (at most the limit: the benchmark fails
// otherwise, or when the export is incomplete).
func BenchmarkSecondConsumer(b *testing.B) { benchInChild(b, "TestQuotaSecondConsumer") }

func secondConsumer(t *testing.T) {
	limits := ratelimit.Default()
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 20, Variants: 2, Locales: 3, Nodes: 20, Depth: 2, Seed: 3})
	h, err := sandbox.New(ds, sandbox.Options{Limits: limits, Latency: sandbox.Latency{Base: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	rec := &exchangeLog{next: h}

	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() {
		client := &http.Client{Transport: &sandboxtest.Transport{Handler: rec}}
		tick := time.NewTicker(4 * time.Second)
		defer tick.Stop()
		for {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://localhost/api/v1/me", nil)
			if err != nil {
				t.Error(err)
				return
			}
			req.Header.Set("Authorization", "Bearer "+dataset.SyntheticToken)
			req.Header.Set(otherClientHeader, "other")
			if resp, err := client.Do(req); err == nil {
				resp.Body.Close()
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
	time.Sleep(time.Minute) // the other client is already at work

	progress := &planCatcher{}
	sum, err := exporter.Run(t.Context(), exporter.Config{
		BaseURL: "http://localhost", Token: dataset.SyntheticToken, Output: "/out", Fs: afero.NewMemMapFs(),
		CacheDir: filepath.Join(t.TempDir(), "cache"), Limits: limits, Formats: []string{"json"},
		Generator: "curex bench", Transport: &sandboxtest.Transport{Handler: rec}, Progress: progress,
	})
	stop()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sum.Partial() || sum.Written != sum.Planned || sum.Planned != 180 {
		t.Fatalf("%d of %d trees written (failures %v)", sum.Written, sum.Planned, sum.Failures[:min(3, len(sum.Failures))])
	}

	ex := rec.take()
	var ours, others, accepted []time.Time
	var ok, limited, otherLimited, cooldowns int
	var recovery []time.Duration
	var cooling bool
	var coolStart time.Time
	for _, e := range ex {
		if e.status != http.StatusTooManyRequests {
			accepted = append(accepted, e.at)
		}
		if e.other {
			others = append(others, e.at)
			if e.status == http.StatusTooManyRequests {
				otherLimited++
			}
			continue
		}
		ours = append(ours, e.at)
		switch {
		case e.status == http.StatusTooManyRequests:
			limited++
			if !cooling {
				cooling, coolStart = true, e.at
				cooldowns++
			}
		case e.status < 300 || e.status == http.StatusNotModified:
			ok++
			if cooling {
				cooling = false
				recovery = append(recovery, e.at.Sub(coolStart))
			}
		}
	}
	if int64(limited) != sum.Stats.RateLimited || int64(len(ours)) != sum.Stats.Requests {
		t.Errorf("the sandbox saw %d requests and %d × 429 of curex; curex counted %+v", len(ours), limited, sum.Stats)
	}
	if limited == 0 {
		t.Error("no 429: the other client should have taken part of the quota")
	}
	span := ours[len(ours)-1].Sub(ours[0])
	minimum := sharedMinimum(limits, others, ours[0], ok)
	ratio := span.Seconds() / minimum.Seconds()
	if ratio < 1 || ratio > 2 {
		t.Errorf("span %v against a minimum of %v", span, minimum)
	}
	var f benchFigures
	f.add("requests", float64(len(ours)))
	f.add("429s", float64(limited))
	f.add("cooldowns", float64(cooldowns))
	f.add("429s/cooldown", float64(limited)/float64(max(1, cooldowns)))
	var total, longest time.Duration
	for _, d := range recovery {
		total += d
		longest = max(longest, d)
	}
	f.add("recovery-mean-s", total.Seconds()/float64(max(1, len(recovery))))
	f.add("recovery-max-s", longest.Seconds())
	f.add("span-s", span.Seconds())
	f.add("min-s", minimum.Seconds())
	f.add("span/min", ratio)
	f.add("other-requests", float64(len(others)))
	f.add("other-429s", float64(otherLimited))
	for i, n := range busiest(limits, accepted) {
		use := float64(n) / float64(limits[i].Count)
		if use > 1 {
			t.Errorf("%v: %d accepted in one window", limits[i], n)
		}
		f.add("busiest-"+limits[i].String(), use)
	}
	f.emit(t)
	t.Logf("limits at the end of the run: %s", progress.limiter.Limits())
}

// TestQuotaLargerThanBudget runs BenchmarkLargerThanBudget's workload.
func TestQuotaLargerThanBudget(t *testing.T) {
	skipUnlessBench(t, "BenchmarkLargerThanBudget")
	synctest.Test(t, largerThanBudget)
}

// BenchmarkLargerThanBudget exports an organization of 2,500 trees (50
// curricula × 5 variants, base included, × 10 locales) under the API's real
// limits, more than two hours of budget, in virtual time. First `curex
// plan` (exporter.Plan) and its ETA, then, once the server's windows are
// clear, exporter.Run of the same plan: the run's span against the ETA.
// Then a resume from nothing: run 1 with --max-requests 1000, run 2 with no
// budget right after it. It checks that run 2 fetched exactly the trees run
// 1 did not (no tree asked twice across both) and that all 2,500 trees are
// exported after run 2, and reports the requests of each run.
func BenchmarkLargerThanBudget(b *testing.B) { benchInChild(b, "TestQuotaLargerThanBudget") }

func largerThanBudget(t *testing.T) {
	const trees = 2500
	limits := ratelimit.Default()
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 50, Variants: 4, Locales: 10, Nodes: 3, Depth: 2, Seed: 5})
	setup := func() (*exchangeLog, exporter.Config) {
		h, err := sandbox.New(ds, sandbox.Options{Limits: limits, Latency: sandbox.Latency{Base: 50 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		rec := &exchangeLog{next: h}
		return rec, exporter.Config{
			BaseURL: "http://localhost", Token: dataset.SyntheticToken, Output: "/out", Fs: afero.NewMemMapFs(),
			CacheDir: filepath.Join(t.TempDir(), "cache"), Limits: limits, Formats: []string{"json"},
			Generator: "curex bench", Transport: &sandboxtest.Transport{Handler: rec},
		}
	}
	// resolved counts the trees answered (not 429) per request, and all
	// requests.
	resolved := func(ex []exchange) (map[string][]int, int) {
		seen := map[string][]int{}
		for _, e := range ex {
			if strings.Contains(e.uri, "/resolved") && e.status != http.StatusTooManyRequests {
				seen[e.uri] = append(seen[e.uri], e.status)
			}
		}
		return seen, len(ex)
	}
	var f benchFigures

	// The plan's ETA against the run.
	rec, cfg := setup()
	rep, err := exporter.Plan(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Schedule.Fetch) != trees {
		t.Fatalf("the plan fetches %d trees, want %d", len(rep.Schedule.Fetch), trees)
	}
	eta := rep.Limiter.ETA(len(rep.Schedule.Fetch))
	discovery := len(rec.take())
	time.Sleep(2 * time.Hour) // the server's windows forget the plan's requests
	progress := &planCatcher{}
	cfg.Progress = progress
	start := time.Now()
	sum, err := exporter.Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	ex := rec.take()
	if sum.Partial() || sum.Written != trees || sum.Stats.RateLimited != 0 {
		t.Fatalf("%d of %d trees written, %d × 429", sum.Written, trees, sum.Stats.RateLimited)
	}
	fetchSpan := ex[len(ex)-1].at.Sub(progress.at)
	f.add("trees", trees)
	f.add("plan-discovery", float64(discovery))
	f.add("run-requests", float64(len(ex)))
	f.add("eta-s", eta.Seconds())
	f.add("run-s", took.Seconds())
	f.add("fetch-s", fetchSpan.Seconds())
	f.add("run/eta", took.Seconds()/eta.Seconds())
	f.add("fetch/eta", fetchSpan.Seconds()/eta.Seconds())
	f.add("run/min", took.Seconds()/greedyMinimum(limits, len(ex)).Seconds())
	if r := fetchSpan.Seconds() / eta.Seconds(); r < 0.95 || r > 1.05 {
		t.Errorf("fetching took %v, the plan said %v", fetchSpan, eta)
	}

	// Resume: run 1 stops at 1,000 requests, run 2 carries on at once.
	rec, cfg = setup()
	cfg.MaxRequests = 1000
	start = time.Now()
	sum1, err := exporter.Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	took1 := time.Since(start)
	ex1 := rec.take()
	got1, all1 := resolved(ex1)
	if !sum1.Partial() || sum1.NotFetched == 0 || sum1.Stats.Requests != 1000 || sum1.NotFetched != trees-len(got1) {
		t.Fatalf("run 1: %d requests, %d trees fetched, %d not fetched; want a partial run of 1000 requests", sum1.Stats.Requests, len(got1), sum1.NotFetched)
	}
	cfg.MaxRequests = 0
	progress = &planCatcher{}
	cfg.Progress = progress
	start = time.Now()
	sum2, err := exporter.Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	took2 := time.Since(start)
	ex2 := rec.take()
	got2, all2 := resolved(ex2)
	// Run 2's shortest span: its accepted requests, each as early as the
	// server's windows allow, run 1's requests still in them.
	server := ratelimit.NewLog(limits)
	for _, e := range ex1 {
		server.Add(e.at)
	}
	last := start
	for _, e := range ex2 {
		if e.status != http.StatusTooManyRequests {
			last = server.Next(last)
			server.Add(last)
		}
	}
	span2 := ex2[len(ex2)-1].at.Sub(start)
	min2 := last.Sub(start)
	t.Logf("run 2 ends pacing under %s", progress.limiter.Limits())
	// Run 2 asks for the trees run 1 did not reach, and revalidates the
	// share of the others that the rolling policy sizes by the time since
	// run 1 began (conditional requests, answered 304); nothing else.
	again := 0
	for u, st := range got2 {
		switch {
		case len(st) > 1:
			t.Errorf("%s asked %d times in run 2", u, len(st))
		case len(got1[u]) > 0 && st[0] != http.StatusNotModified:
			t.Errorf("%s fetched in run 1 and again in run 2 (status %d)", u, st[0])
		case len(got1[u]) > 0:
			again++
		}
	}
	for u, st := range got1 {
		if len(st) > 1 {
			t.Errorf("%s asked %d times in run 1", u, len(st))
		}
	}
	if due := sum2.Schedule.Count(fresh.Due); again != due || sum2.Schedule.Count(fresh.New) != sum1.NotFetched {
		t.Errorf("run 2: %d trees of run 1 asked again, %d due for revalidation; %d new, run 1 left %d", again, due, sum2.Schedule.Count(fresh.New), sum1.NotFetched)
	}
	got2new := len(got2) - again
	if len(got1)+got2new != trees {
		t.Errorf("run 1 fetched %d trees, run 2 %d more: want %d together", len(got1), got2new, trees)
	}
	bundles, err := afero.Glob(cfg.Fs, "/out/bundles/*/*/*/tree.json")
	if err != nil {
		t.Fatal(err)
	}
	if sum2.Partial() || sum2.Written+sum2.Reused != trees || len(bundles) != trees {
		t.Errorf("after run 2: %d written, %d reused, %d bundles, failures %v", sum2.Written, sum2.Reused, len(bundles), sum2.Failures[:min(3, len(sum2.Failures))])
	}
	f.add("run1-requests", float64(all1))
	f.add("run1-trees", float64(len(got1)))
	f.add("run1-s", took1.Seconds())
	f.add("run2-requests", float64(all2))
	f.add("run2-new-trees", float64(got2new))
	f.add("run2-revalidated", float64(again))
	f.add("run2-429s", float64(sum2.Stats.RateLimited))
	f.add("run2-s", took2.Seconds())
	f.add("run2-span/min", span2.Seconds()/min2.Seconds())
	// The longest pause of run 2: its first request meets run 1's hour.
	var pause time.Duration
	for i := 1; i < len(ex2); i++ {
		pause = max(pause, ex2[i].at.Sub(ex2[i-1].at))
	}
	f.add("run2-longest-pause-s", pause.Seconds())
	f.emit(t)
}

// TestQuotaExportScheduleVirtual runs BenchmarkExportScheduleVirtual's
// workload.
func TestQuotaExportScheduleVirtual(t *testing.T) {
	skipUnlessBench(t, "BenchmarkExportScheduleVirtual")
	synctest.Test(t, func(t *testing.T) {
		limits, err := ratelimit.Parse("20/1s,120/6s")
		if err != nil {
			t.Fatal(err)
		}
		ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 10, Variants: 2, Locales: 12, Nodes: 60, Depth: 3, Seed: 1})
		h, err := sandbox.New(ds, sandbox.Options{Limits: limits, Latency: sandbox.Latency{Base: 20 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{base: &sandboxtest.Transport{Handler: h}}
		sum, err := exporter.Run(t.Context(), exporter.Config{
			BaseURL: "http://localhost", Token: dataset.SyntheticToken, Output: "/out", Fs: afero.NewMemMapFs(),
			CacheDir: filepath.Join(t.TempDir(), "cache"), Limits: limits, Concurrency: 4, Formats: []string{"json"},
			Transport: rec,
		})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Partial() || sum.Stats.RateLimited != 0 {
			t.Fatalf("%d failures, %d × 429", len(sum.Failures), sum.Stats.RateLimited)
		}
		n := len(rec.sends)
		span := rec.sends[n-1].Sub(rec.sends[0])
		minimum := greedyMinimum(limits, n)
		var f benchFigures
		f.add("requests", float64(n))
		f.add("span-s", span.Seconds())
		f.add("min-s", minimum.Seconds())
		f.add("span/min", span.Seconds()/minimum.Seconds())
		if r := span.Seconds() / minimum.Seconds(); r > 1.05 {
			t.Errorf("span %v is %.3f × the minimum %v", span, r, minimum)
		}
		for i, n := range busiest(limits, rec.sends) {
			use := float64(n) / float64(limits[i].Count)
			if use > 1 || use < 0.98 {
				t.Errorf("%v: busiest window at %.3f of the limit", limits[i], use)
			}
			f.add("busiest-"+limits[i].String(), use)
		}
		f.emit(t)
	})
}

// BenchmarkExportScheduleVirtual is BenchmarkExportScheduleLong in virtual
// time, JSON only, over the sandbox's in-memory transport: what is left is
// the schedule itself (the limiter's margin, one round trip of 20 ms per
// window, discovery), without the machine's share (sockets, rendering and
// the sandbox competing for the processors).
func BenchmarkExportScheduleVirtual(b *testing.B) { benchInChild(b, "TestQuotaExportScheduleVirtual") }
