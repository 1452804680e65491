package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"testing/synctest"
	"time"

	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/pacer/pacertest"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/internal/setting"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

const trToken = "sandbox-riverbend-token"

// trPaths is an export-shaped round of requests on the sample dataset:
// discovery (me, the list, each curriculum's record, variants and
// locales), then every resolved tree.
var trPaths = func() []string {
	ps := []string{"/api/v1/me", "/api/v1/curricula?page=1&per_page=20"}
	for _, id := range []string{"101", "curriculum_201"} {
		ps = append(ps, "/api/v1/curricula/"+id, "/api/v1/curricula/"+id+"/variants", "/api/v1/curricula/"+id+"/locales")
		for _, loc := range []string{"en", "es", "ar", "ja"} {
			ps = append(ps, "/api/v1/curricula/"+id+"/resolved?locale="+loc)
		}
	}
	return ps
}()

// trExchange is one attempt as the server saw it.
type trExchange struct {
	arrived, answered time.Time
	status            int
	retryAfter        string
}

// trRecorder sits between fetch.Transport and the sandbox and records
// every attempt. With sandboxtest.Transport a request reaches the handler's
// rate limit at the moment it is sent.
type trRecorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	ex   []trExchange
}

func (r *trRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	e := trExchange{arrived: time.Now()}
	resp, err := r.base.RoundTrip(req)
	e.answered = time.Now()
	if resp != nil {
		e.status, e.retryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
	}
	r.mu.Lock()
	r.ex = append(r.ex, e)
	r.mu.Unlock()
	return resp, err
}

func (r *trRecorder) arrivals() []time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	ts := make([]time.Time, len(r.ex))
	for i, e := range r.ex {
		ts[i] = e.arrived
	}
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	return ts
}

func trHandler(t testing.TB, opts sandbox.Options) *sandbox.Handler {
	t.Helper()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandbox.New(ds, opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// trSetup is a client going through fetch.Transport to a sandbox handler.
type trSetup struct {
	client  *http.Client
	tr      *fetch.Transport
	limiter *pacer.Limiter
	stats   *fetch.Stats
	rec     *trRecorder
}

func trNew(t testing.TB, server sandbox.Options, lo pacer.LimiterOptions, maxRequests int64) *trSetup {
	t.Helper()
	s := &trSetup{stats: &fetch.Stats{}, rec: &trRecorder{base: &sandboxtest.Transport{Handler: trHandler(t, server)}}}
	s.limiter = pacer.NewLimiter(lo)
	s.tr = &fetch.Transport{Base: s.rec, Limiter: s.limiter, Stats: s.stats, MaxRequests: maxRequests}
	s.client = &http.Client{Transport: s.tr}
	return s
}

// get sends one GET and returns the status, reading the body through.
func (s *trSetup) get(ctx context.Context, path string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://sandbox.test"+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+trToken)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// run fetches k paths (trPaths round after round) with the given workers;
// a 429 is simply asked again (the limiter does the waiting). It returns
// how many 429s the workers met.
func (s *trSetup) run(t testing.TB, ctx context.Context, workers, k int) int {
	var next, limited atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= k {
					return
				}
				for {
					status, err := s.get(ctx, trPaths[i%len(trPaths)])
					if err != nil {
						t.Error(err)
						return
					}
					if status == http.StatusTooManyRequests {
						limited.Add(1)
						continue
					}
					if status != http.StatusOK {
						t.Errorf("%s: status %d", trPaths[i%len(trPaths)], status)
					}
					break
				}
			}
		})
	}
	wg.Wait()
	return int(limited.Load())
}

// TestTransportEarnsNo429 runs export-shaped workloads against a sandbox
// with the same limits as the client: no 429, every window within its
// limit as the server saw it, and a span near the greedy minimum.
func TestTransportEarnsNo429(t *testing.T) {
	tests := []struct {
		limits  string
		workers int
		k       int
		latency sandbox.Latency
		headers bool
	}{
		{"60/1m,1000/1h", 4, 300, sandbox.Latency{}, false},
		{"60/1m,1000/1h", 8, 1100, sandbox.Latency{Base: 40 * time.Millisecond, PerKB: time.Millisecond}, false},
		{"20/1s,120/6s", 4, 500, sandbox.Latency{Base: 20 * time.Millisecond}, false},
		{"20/1s,120/6s", 4, 500, sandbox.Latency{Base: 20 * time.Millisecond}, true},
		{"20/1s,120/6s", 16, 500, sandbox.Latency{}, true},
	}
	for _, tt := range tests {
		name := tt.limits + "/workers=" + strconv.Itoa(tt.workers) + "/k=" + strconv.Itoa(tt.k) + "/latency=" + tt.latency.String()
		if tt.headers {
			name += "/headers"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ls := pacertest.Limits(t, tt.limits)
				s := trNew(t, sandbox.Options{Limits: ls, Latency: tt.latency, RateLimitHeaders: tt.headers}, pacer.LimiterOptions{Limits: ls}, 0)
				if n := s.run(t, t.Context(), tt.workers, tt.k); n != 0 {
					t.Errorf("earned %d × 429", n)
				}
				st := s.stats.Snapshot()
				if st.Requests != int64(tt.k) || st.OK != int64(tt.k) || st.RateLimited != 0 || s.tr.Sent() != int64(tt.k) {
					t.Errorf("stats %+v, sent %d; want %d requests, all OK", st, s.tr.Sent(), tt.k)
				}
				arr := s.rec.arrivals()
				for _, lim := range ls {
					if peak := pacertest.Peak(arr, lim.Window); peak > lim.Count {
						t.Errorf("%v: the server saw %d in one window", lim, peak)
					} else if tt.k >= lim.Count && float64(peak) < 0.98*float64(lim.Count) {
						t.Errorf("%v: busiest window holds %d, under 98%%", lim, peak)
					}
				}
				span := arr[len(arr)-1].Sub(arr[0])
				minimum := pacertest.Greedy(tt.k, ls)[tt.k-1]
				if ratio := float64(span) / float64(minimum); ratio > 1.05 {
					t.Errorf("span %v is %.3f × the minimum %v", span, ratio, minimum)
				}
			})
		})
	}
}

// TestTransportSecondConsumer gives the sandbox tighter limits than the
// client's, as when another client of the organization uses part of the
// budget: 429s come, everyone pauses for the Retry-After (60 s without
// one), the limiter lowers its limits, and the run completes.
func TestTransportSecondConsumer(t *testing.T) {
	tests := []struct {
		name        string
		client      string
		server      string
		omitRetry   bool
		headers     bool
		k           int
		max429      int
		wantLowered bool
	}{
		{"Retry-After", "20/1s,120/6s", "14/1s,84/6s", false, false, 300, 15, true},
		{"no Retry-After", "20/1s,120/6s", "14/1s,84/6s", true, false, 300, 15, true},
		{"headers", "20/1s,120/6s", "14/1s,84/6s", false, true, 300, 3, false},
		{"API limits", "60/1m,1000/1h", "40/1m,1000/1h", false, false, 400, 15, true},
		{"API limits, hour", "60/1m,1000/1h", "60/1m,700/1h", false, false, 1000, 15, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := trNew(t, sandbox.Options{Limits: pacertest.Limits(t, tt.server), OmitRetryAfter: tt.omitRetry, RateLimitHeaders: tt.headers, Latency: sandbox.Latency{Base: 10 * time.Millisecond}},
					pacer.LimiterOptions{Limits: pacertest.Limits(t, tt.client)}, 0)
				start := time.Now()
				n := s.run(t, t.Context(), 4, tt.k)
				st := s.stats.Snapshot()
				t.Logf("%d requests, %d × 429 in %v; limits now %s", tt.k, n, time.Since(start), s.limiter.Limits())
				if n == 0 && !tt.headers {
					t.Fatal("no 429: the server's limits should have bitten")
				}
				if n > tt.max429 {
					t.Errorf("%d × 429 for %d requests, want at most %d", n, tt.k, tt.max429)
				}
				if st.RateLimited != int64(n) || st.OK != int64(tt.k) || st.Requests != int64(tt.k+n) {
					t.Errorf("stats %+v; want %d OK and %d × 429", st, tt.k, n)
				}
				if lowered := s.limiter.Limits().String() != tt.client; lowered != tt.wantLowered && !tt.headers {
					t.Errorf("limits now %s (lowered: %v, want %v)", s.limiter.Limits(), lowered, tt.wantLowered)
				}
				// Nobody reached the server during a pause.
				s.rec.mu.Lock()
				ex := slices.Clone(s.rec.ex)
				s.rec.mu.Unlock()
				for _, e := range ex {
					if e.status != http.StatusTooManyRequests {
						continue
					}
					pause := 60 * time.Second
					if !tt.omitRetry {
						secs, err := strconv.Atoi(e.retryAfter)
						if err != nil {
							t.Fatalf("Retry-After %q", e.retryAfter)
						}
						pause = time.Duration(secs) * time.Second
					}
					for _, o := range ex {
						if o.arrived.After(e.answered) && o.arrived.Before(e.answered.Add(pause)) {
							t.Errorf("a request reached the server %v into a pause of %v", o.arrived.Sub(e.answered), pause)
						}
					}
				}
			})
		})
	}
}

// TestTransportMaxRequests checks the request budget: past it, ErrBudget
// without sending, from any number of workers.
func TestTransportMaxRequests(t *testing.T) {
	tests := []struct {
		workers, each int
		max           int64
	}{
		{1, 8, 5},
		{4, 5, 7},
		{8, 10, 80},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.workers)+"x"+strconv.Itoa(tt.each)+"/max="+strconv.FormatInt(tt.max, 10), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := trNew(t, sandbox.Options{Limits: ratelimit.Limits{}}, pacer.LimiterOptions{Limits: pacertest.Limits(t, "20/1s")}, tt.max)
				var ok, budget atomic.Int64
				var wg sync.WaitGroup
				for range tt.workers {
					wg.Go(func() {
						for range tt.each {
							status, err := s.get(t.Context(), "/api/v1/me")
							switch {
							case errors.Is(err, fetch.ErrBudget):
								budget.Add(1)
							case err != nil || status != http.StatusOK:
								t.Errorf("status %d, %v", status, err)
							default:
								ok.Add(1)
							}
						}
					})
				}
				wg.Wait()
				total := int64(tt.workers * tt.each)
				want := min(total, tt.max)
				if ok.Load() != want || budget.Load() != total-want {
					t.Errorf("%d OK and %d over budget, want %d and %d", ok.Load(), budget.Load(), want, total-want)
				}
				if got := int64(len(s.rec.arrivals())); got != want || s.tr.Sent() != want || s.stats.Snapshot().Requests != want {
					t.Errorf("server saw %d, Sent %d, stats %d; want %d", got, s.tr.Sent(), s.stats.Snapshot().Requests, want)
				}
			})
		})
	}
}

// fill lets one request leave l, answered at once, outside any Transport:
// under a limit of one request per window, the next waits a window.
func fill(t *testing.T, l *pacer.Limiter) {
	t.Helper()
	tk, err := l.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	l.Done(tk, http.StatusOK, nil)
}

// TestTransportCancelWhileWaiting checks that a request canceled while it
// waits for the limiter is not sent nor counted.
func TestTransportCancelWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := trNew(t, sandbox.Options{}, pacer.LimiterOptions{Limits: pacertest.Limits(t, "1/1h")}, 10)
		fill(t, s.limiter)
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		start := time.Now()
		_, err := s.get(ctx, "/api/v1/me")
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Minute {
			t.Fatalf("after %v: %v, want the context's deadline after 1m", time.Since(start), err)
		}
		if s.tr.Sent() != 0 || s.stats.Snapshot().Requests != 0 || len(s.rec.arrivals()) != 0 {
			t.Errorf("sent %d, stats %+v", s.tr.Sent(), s.stats.Snapshot())
		}
	})
}

// TestTransportCountsStatuses checks the Stats classes and that a
// transport error reaches the limiter as "no answer".
func TestTransportCountsStatuses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		codes := []int{200, 204, 304, 301, 404, 401, 429, 500, 503, 0}
		var i atomic.Int64
		base := roundTripFunc(func(req *http.Request) (*http.Response, error) {
			c := codes[i.Add(1)-1]
			if c == 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return &http.Response{StatusCode: c, Header: http.Header{"Retry-After": {"1"}}, Body: http.NoBody, Request: req}, nil
		})
		stats := &fetch.Stats{}
		tr := &fetch.Transport{Base: base, Limiter: pacer.NewLimiter(pacer.LimiterOptions{Limits: ratelimit.Limits{}}), Stats: stats}
		for range codes {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://x.test/", nil)
			if resp, err := tr.RoundTrip(req); err == nil {
				resp.Body.Close()
			}
		}
		stats.AddRetry()
		stats.OnRetry(1, nil, 0)
		want := fetch.StatsSnapshot{Requests: 10, OK: 2, NotModified: 1, Other: 1, ClientErrors: 2, RateLimited: 1, ServerErrors: 2, TransportErrors: 1, Retries: 2}
		if got := stats.Snapshot(); got != want {
			t.Errorf("stats %+v\nwant  %+v", got, want)
		}
		if got := stats.Snapshot().String(); got != "10 requests: 2 ok, 1 not modified, 1 rate-limited, 2 server errors, 2 client errors, 1 transport errors; 2 retries; 1 other answers" {
			t.Errorf("String: %s", got)
		}
		var nilStats *fetch.Stats
		nilStats.AddRetry()
		if nilStats.Snapshot() != (fetch.StatsSnapshot{}) {
			t.Error("nil Stats counted")
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// TestTransportWithoutLimiter checks the nil defaults: no pacing, no
// counting.
func TestTransportWithoutLimiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := trHandler(t, sandbox.Options{Limits: ratelimit.Limits{}})
		c := &http.Client{Transport: &fetch.Transport{Base: &sandboxtest.Transport{Handler: h}}}
		start := time.Now()
		for range 200 {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://sandbox.test/api/v1/me", nil)
			req.Header.Set("Authorization", "Bearer "+trToken)
			resp, err := c.Do(req)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("%v %v", resp, err)
			}
			resp.Body.Close()
		}
		if time.Since(start) != 0 {
			t.Errorf("took %v without a limiter", time.Since(start))
		}
	})
}

// TestTransportRetryAttemptClock checks that the time a request waits for
// the limiter is not part of its attempt's timeout, while time at the
// server is.
func TestTransportRetryAttemptClock(t *testing.T) {
	tests := []struct {
		name     string
		pause    time.Duration
		latency  time.Duration
		attempts int // attempts the policy makes
		ok       bool
	}{
		{"long limiter wait, quick answer", 5 * time.Minute, time.Second, 1, true},
		{"slow answer times out", 0, 20 * time.Second, 3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				lo := pacer.LimiterOptions{}
				if tt.pause > 0 {
					lo.Limits = ratelimit.Limits{{Count: 1, Window: tt.pause}}
				}
				s := trNew(t, sandbox.Options{Latency: sandbox.Latency{Base: tt.latency}}, lo, 0)
				if tt.pause > 0 {
					fill(t, s.limiter)
				}
				attempts := 0
				p := retry.Policy{MaxAttempts: 3, AttemptTimeout: 10 * time.Second, Retryable: func(error) bool { return false }, Rand: func() float64 { return 0 }}
				err := p.Do(t.Context(), func(ctx context.Context) error {
					attempts++
					status, err := s.get(ctx, "/api/v1/me")
					if err == nil && status != http.StatusOK {
						err = errors.New("status " + strconv.Itoa(status))
					}
					return err
				})
				if (err == nil) != tt.ok || attempts != tt.attempts {
					t.Fatalf("%d attempts: %v", attempts, err)
				}
				if !tt.ok && !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("error %v does not match context.DeadlineExceeded", err)
				}
			})
		})
	}
}

// TestTransportCountsBodiesCutShort checks that an answer whose body
// breaks off is counted, once, besides its status.
func TestTransportCountsBodiesCutShort(t *testing.T) {
	cut := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, Request: req,
			Body: io.NopCloser(io.MultiReader(strings.NewReader("half"), iotest.ErrReader(io.ErrUnexpectedEOF)))}, nil
	})
	stats := &fetch.Stats{}
	tr := &fetch.Transport{Base: cut, Stats: stats}
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/x", nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(resp.Body); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("read error %v", err)
	}
	_, _ = resp.Body.Read(make([]byte, 1))
	if got := stats.Snapshot(); got.CutShort != 1 || got.OK != 1 || !strings.Contains(got.String(), "1 cut short") {
		t.Errorf("stats %+v, want 1 ok and 1 cut short", got)
	}
}

// TestTransportDeadline: past the deadline nothing is sent, and a request
// that would wait for the limiter past it is not sent either; both are
// fetch.ErrDeadline, which a run treats as fetch.ErrBudget. A request that fits before
// the deadline goes.
func TestTransportDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var sent int
		base := roundTripFunc(func(*http.Request) (*http.Response, error) {
			sent++
			return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody}, nil
		})
		limits, err := ratelimit.Parse("2/1m")
		if err != nil {
			t.Fatal(err)
		}
		tr := &fetch.Transport{Base: base, Limiter: pacer.NewLimiter(pacer.LimiterOptions{Limits: limits}), Deadline: time.Now().Add(30 * time.Second)}
		get := func() error {
			req, _ := http.NewRequest(http.MethodGet, "http://localhost/api/v1/me", nil)
			resp, err := tr.RoundTrip(req)
			if err == nil {
				resp.Body.Close()
			}
			return err
		}
		for range 2 {
			if err := get(); err != nil {
				t.Fatalf("a request within the limit and the deadline: %v", err)
			}
		}
		start := time.Now()
		err = get() // the limiter would hold it for a minute
		if !errors.Is(err, fetch.ErrDeadline) || !errors.Is(err, fetch.ErrBudget) {
			t.Fatalf("err = %v, want fetch.ErrDeadline (and fetch.ErrBudget)", err)
		}
		if waited := time.Since(start); waited > 30*time.Second {
			t.Errorf("waited %v, past the deadline", waited)
		}
		time.Sleep(time.Minute)
		if err := get(); !errors.Is(err, fetch.ErrDeadline) {
			t.Errorf("after the deadline: err = %v, want fetch.ErrDeadline", err)
		}
		if sent != 2 || tr.Sent() != 2 {
			t.Errorf("sent %d (Sent %d), want 2", sent, tr.Sent())
		}
	})
}

// TestStopErrors: the errors of a request the run's limits keep back
// name the setting that set the limit, and no retry is made for them.
func TestStopErrors(t *testing.T) {
	tests := []struct {
		err        error
		setting    string
		isBudget   bool
		isDeadline bool
	}{
		{fmt.Errorf("get /me: %w", fetch.ErrBudget), setting.MaxRequests, true, false},
		{fmt.Errorf("get /me: %w", fetch.ErrDeadline), setting.Deadline, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.setting, func(t *testing.T) {
			se, ok := setting.Of(tt.err)
			if !ok || se.Name != tt.setting {
				t.Errorf("%v names setting %v, want %s", tt.err, se, tt.setting)
			}
			if !strings.HasPrefix(tt.err.Error(), "get /me: "+tt.setting+": ") {
				t.Errorf("message %q does not lead with the setting", tt.err)
			}
			if !errors.Is(tt.err, retry.ErrFinal) {
				t.Errorf("%v is not final: a retry policy would retry it", tt.err)
			}
			if errors.Is(tt.err, fetch.ErrBudget) != tt.isBudget || errors.Is(tt.err, fetch.ErrDeadline) != tt.isDeadline {
				t.Errorf("%v: is budget %v, is deadline %v; want %v, %v", tt.err,
					errors.Is(tt.err, fetch.ErrBudget), errors.Is(tt.err, fetch.ErrDeadline), tt.isBudget, tt.isDeadline)
			}
		})
	}
}
