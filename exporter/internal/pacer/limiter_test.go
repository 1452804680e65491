package pacer_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/pacer/pacertest"
	"github.com/curex/curex/exporter/ratelimit"
)

// paceStretch returns ls with every window stretched by margin.
func paceStretch(ls ratelimit.Limits, margin float64) ratelimit.Limits {
	out := slices.Clone(ls)
	for i := range out {
		out[i].Window += time.Duration(float64(out[i].Window)*margin + 0.5)
	}
	return out
}

// paceHammer runs workers that call Wait until k requests are released,
// each answered at once with a 200 (Observe), and returns the release
// times, sorted.
func paceHammer(t *testing.T, l *pacer.Limiter, workers, k int) []time.Time {
	t.Helper()
	var (
		mu    sync.Mutex
		times []time.Time
		left  atomic.Int64
		wg    sync.WaitGroup
	)
	left.Store(int64(k))
	for range workers {
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				if err := l.Wait(t.Context()); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				times = append(times, time.Now())
				mu.Unlock()
				l.Observe(http.StatusOK, nil)
			}
		})
	}
	wg.Wait()
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	return times
}

// TestLimiterPacing hammers a limiter from many workers and checks the
// release times by brute force against every limit, and the span against
// the greedy minimum.
func TestLimiterPacing(t *testing.T) {
	tests := []struct {
		limits  string
		margin  float64
		workers int
		k       int
	}{
		{"60/1m,1000/1h", 0, 1, 1200},
		{"60/1m,1000/1h", 0, 4, 1200},
		{"60/1m,1000/1h", 0, 16, 1200},
		{"60/1m,1000/1h", -1, 8, 1200},
		{"60/1m,1000/1h", 0, 8, 300},
		{"20/1s,120/6s", 0, 4, 500},
		{"20/1s,120/6s", 0, 32, 500},
		{"20/1s,120/6s", -1, 4, 500},
		{"3/1s", 0.1, 3, 40},
	}
	for _, tt := range tests {
		name := tt.limits + "/margin=" + strconv.FormatFloat(tt.margin, 'g', -1, 64) + "/workers=" + strconv.Itoa(tt.workers) + "/k=" + strconv.Itoa(tt.k)
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ls := pacertest.Limits(t, tt.limits)
				l := pacer.NewLimiter(pacer.LimiterOptions{Limits: ls, Margin: tt.margin})
				start := time.Now()
				times := paceHammer(t, l, tt.workers, tt.k)
				if len(times) != tt.k {
					t.Fatalf("%d releases, want %d", len(times), tt.k)
				}
				for _, lim := range ls {
					peak := pacertest.Peak(times, lim.Window)
					if peak > lim.Count {
						t.Errorf("%v: %d requests in one window", lim, peak)
					}
					if tt.k >= lim.Count && float64(peak) < 0.98*float64(lim.Count) {
						t.Errorf("%v: busiest window holds %d, under 98%%", lim, peak)
					}
				}
				margin := tt.margin
				if margin == 0 {
					margin = pacer.DefaultMargin
				}
				if margin < 0 {
					margin = 0
				}
				span := times[len(times)-1].Sub(times[0])
				if times[0] != start {
					t.Errorf("first release %v after start", times[0].Sub(start))
				}
				// Waking at the exact moment: the schedule is the greedy one
				// under the stretched windows, to the nanosecond.
				want := pacertest.Greedy(tt.k, paceStretch(ls, margin))
				if span != want[tt.k-1] {
					t.Errorf("span %v, want the greedy %v", span, want[tt.k-1])
				}
				minimum := pacertest.Greedy(tt.k, ls)[tt.k-1]
				if ratio := float64(span) / float64(minimum); ratio > 1+margin+1e-9 {
					t.Errorf("span %v is %.4f × the minimum %v", span, ratio, minimum)
				}
			})
		})
	}
}

// TestLimiterPause checks that a 429 pauses everyone for its Retry-After
// (60 s without one), that one probe goes first and the others follow
// when it reports back.
func TestLimiterPause(t *testing.T) {
	tests := []struct {
		name   string
		header http.Header
		opts   pacer.LimiterOptions
		want   time.Duration
	}{
		{"no Retry-After", nil, pacer.LimiterOptions{}, 60 * time.Second},
		{"Retry-After 7", http.Header{"Retry-After": {"7"}}, pacer.LimiterOptions{}, 7 * time.Second},
		{"Retry-After 0", http.Header{"Retry-After": {"0"}}, pacer.LimiterOptions{}, 0},
		{"Retry-After date", http.Header{
			"Date":        {"Sun, 22 Nov 2026 03:00:00 GMT"},
			"Retry-After": {"Sun, 22 Nov 2026 03:01:30 GMT"},
		}, pacer.LimiterOptions{}, 90 * time.Second},
		{"malformed Retry-After", http.Header{"Retry-After": {"soon"}}, pacer.LimiterOptions{}, 60 * time.Second},
		{"DefaultRetryAfter", nil, pacer.LimiterOptions{DefaultRetryAfter: 5 * time.Second}, 5 * time.Second},
		{"absurd Retry-After is capped", http.Header{"Retry-After": {"999999999"}}, pacer.LimiterOptions{}, 2 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tt.opts.Limits = pacertest.Limits(t, "100/1s")
				l := pacer.NewLimiter(tt.opts)
				first, err := l.Acquire(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				l.Done(first, http.StatusTooManyRequests, tt.header)

				type release struct {
					ticket pacer.Ticket
					at     time.Time
				}
				released := make(chan release, 3)
				for range 3 {
					go func() {
						tk, err := l.Acquire(t.Context())
						if err != nil {
							t.Error(err)
						}
						released <- release{tk, time.Now()}
					}()
				}
				if tt.want > 0 {
					time.Sleep(tt.want - time.Nanosecond)
					synctest.Wait()
					if len(released) != 0 {
						t.Fatalf("%d released %v into a pause of %v", len(released), time.Since(start), tt.want)
					}
					time.Sleep(time.Nanosecond)
				}
				synctest.Wait()
				if len(released) != 1 {
					t.Fatalf("%d released at the end of the pause, want the probe alone", len(released))
				}
				probe := <-released
				if !probe.ticket.Probe() || probe.at.Sub(start) != tt.want {
					t.Fatalf("probe=%v after %v, want a probe after %v", probe.ticket.Probe(), probe.at.Sub(start), tt.want)
				}
				time.Sleep(3 * time.Second) // the probe takes its time
				synctest.Wait()
				if len(released) != 0 {
					t.Fatal("others released before the probe reported back")
				}
				l.Done(probe.ticket, http.StatusOK, nil)
				synctest.Wait()
				if len(released) != 2 {
					t.Fatalf("%d released after the probe, want 2", len(released))
				}
				for range 2 {
					r := <-released
					if r.ticket.Probe() || r.at.Sub(probe.at) != 3*time.Second {
						t.Errorf("probe=%v at %v after the probe, want a plain release at 3s", r.ticket.Probe(), r.at.Sub(probe.at))
					}
				}
			})
		})
	}
}

// TestLimiterProbeOutcomes covers a probe that gets no answer (the next
// request probes instead), one that never reports (the others go after
// ProbeTimeout), and a probe answered through Observe.
func TestLimiterProbeOutcomes(t *testing.T) {
	tests := []struct {
		name string
		// report reports the probe's outcome, or nothing.
		report func(l *pacer.Limiter, probe pacer.Ticket)
		// wait is how long after the probe the next request leaves.
		wait time.Duration
		// nextProbe is whether that request is a probe itself.
		nextProbe bool
	}{
		{"transport error", func(l *pacer.Limiter, p pacer.Ticket) { l.Done(p, 0, nil) }, 0, true},
		{"no report", func(*pacer.Limiter, pacer.Ticket) {}, 10 * time.Second, false},
		{"Observe", func(l *pacer.Limiter, _ pacer.Ticket) { l.Observe(http.StatusNotModified, nil) }, 0, false},
		{"server error", func(l *pacer.Limiter, p pacer.Ticket) { l.Done(p, http.StatusServiceUnavailable, nil) }, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l := pacer.NewLimiter(pacer.LimiterOptions{Limits: pacertest.Limits(t, "100/1s"), ProbeTimeout: 10 * time.Second})
				l.Pause(time.Second)
				probe, err := l.Acquire(t.Context())
				if err != nil || !probe.Probe() {
					t.Fatalf("first after the pause: probe=%v, %v", probe.Probe(), err)
				}
				next := make(chan pacer.Ticket, 1)
				go func() {
					tk, err := l.Acquire(t.Context())
					if err != nil {
						t.Error(err)
					}
					next <- tk
				}()
				synctest.Wait()
				tt.report(l, probe)
				tk := <-next
				if got := tk.Sent().Sub(probe.Sent()); got != tt.wait || tk.Probe() != tt.nextProbe {
					t.Errorf("next after %v (probe=%v), want %v (probe=%v)", got, tk.Probe(), tt.wait, tt.nextProbe)
				}
			})
		})
	}
}

// TestLimiterCancel checks that waiters whose context ends return at once
// with its error, recording nothing.
func TestLimiterCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := pacer.NewLimiter(pacer.LimiterOptions{Limits: pacertest.Limits(t, "1/1h"), Margin: -1})
		start := time.Now()
		if err := l.Wait(t.Context()); err != nil {
			t.Fatal(err)
		}
		done, cancel := context.WithCancel(t.Context())
		cancel()
		if err := l.Wait(done); !errors.Is(err, context.Canceled) {
			t.Fatalf("Wait with a done context: %v", err)
		}
		// One waiter first in line (on its timer), one queued behind it.
		var errs [2]chan error
		var cancels [2]context.CancelFunc
		for i := range errs {
			ctx, cancel := context.WithCancel(t.Context())
			cancels[i], errs[i] = cancel, make(chan error, 1)
			go func() { errs[i] <- l.Wait(ctx) }()
			synctest.Wait()
		}
		time.Sleep(time.Minute)
		for i := range errs {
			at := time.Now()
			cancels[i]()
			if err := <-errs[i]; !errors.Is(err, context.Canceled) {
				t.Errorf("waiter %d: %v, want context.Canceled", i, err)
			}
			if time.Since(at) != 0 {
				t.Errorf("waiter %d returned %v after its cancellation", i, time.Since(at))
			}
		}
		// Nothing was recorded: the next request fits an hour after the first.
		if err := l.Wait(t.Context()); err != nil {
			t.Fatal(err)
		}
		if got := time.Since(start); got != time.Hour {
			t.Errorf("next release after %v, want 1h", got)
		}
	})
}

// TestLimiterAdaptive checks when 429s lower the limits and how they
// recover.
func TestLimiterAdaptive(t *testing.T) {
	ra := http.Header{"Retry-After": {"1"}}
	acquire := func(t *testing.T, l *pacer.Limiter) pacer.Ticket {
		t.Helper()
		tk, err := l.Acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	tests := []struct {
		name   string
		limits string
		run    func(t *testing.T, l *pacer.Limiter)
		want   string
	}{
		{"429 with room lowers", "60/1m,1000/1h", func(t *testing.T, l *pacer.Limiter) {
			l.Done(acquire(t, l), 429, ra)
		}, "48/1m,800/1h"},
		{"429s of the same burst lower once", "60/1m,1000/1h", func(t *testing.T, l *pacer.Limiter) {
			a, b, c := acquire(t, l), acquire(t, l), acquire(t, l)
			l.Done(b, 429, ra)
			l.Done(a, 429, ra)
			l.Done(c, 429, ra)
		}, "48/1m,800/1h"},
		{"the probe's 429 lowers again", "60/1m,1000/1h", func(t *testing.T, l *pacer.Limiter) {
			l.Done(acquire(t, l), 429, ra)
			probe := acquire(t, l)
			if !probe.Probe() {
				t.Fatal("no probe after the pause")
			}
			l.Done(probe, 429, ra)
		}, "38/1m,640/1h"},
		{"recovery waits for the end of the pause", "60/1m", func(t *testing.T, l *pacer.Limiter) {
			l.Done(acquire(t, l), 429, http.Header{"Retry-After": {"100"}})
			time.Sleep(100*time.Second + 59*time.Second)
		}, "48/1m"},
		{"only the suspect limit is cut", "60/1m,1000/1h", func(t *testing.T, l *pacer.Limiter) {
			for range 59 {
				l.Done(acquire(t, l), 200, nil)
			}
			l.Done(acquire(t, l), 429, ra) // 60/60 of the minute, 60/1000 of the hour
		}, "48/1m,1000/1h"},
		{"a Retry-After longer than a window clears it", "60/1m,1000/1h", func(t *testing.T, l *pacer.Limiter) {
			for range 59 {
				l.Done(acquire(t, l), 200, nil)
			}
			l.Done(acquire(t, l), 429, http.Header{"Retry-After": {"1800"}})
		}, "60/1m,800/1h"},
		{"a Retry-After longer than every window: the longest", "60/1m,1000/1h", func(t *testing.T, l *pacer.Limiter) {
			l.Done(acquire(t, l), 429, http.Header{"Retry-After": {"86400"}})
		}, "60/1m,800/1h"},
		{"no 429, no change", "60/1m,1000/1h", func(t *testing.T, l *pacer.Limiter) {
			for range 100 {
				l.Done(acquire(t, l), 200, nil)
			}
		}, "60/1m,1000/1h"},
		{"Observe 429 while the log is full: no news", "2/1m", func(t *testing.T, l *pacer.Limiter) {
			acquire(t, l)
			acquire(t, l)
			l.Observe(429, ra)
		}, "2/1m"},
		{"Observe 429 with room lowers", "60/1m", func(t *testing.T, l *pacer.Limiter) {
			acquire(t, l)
			l.Observe(429, ra)
			l.Observe(429, ra) // during the pause: same news
		}, "48/1m"},
		{"count floor is 1", "1/1m", func(t *testing.T, l *pacer.Limiter) {
			l.Done(acquire(t, l), 429, ra)
		}, "1/1m"},
		{"recovers 5% per quiet window", "60/1m,1000/1h", func(t *testing.T, l *pacer.Limiter) {
			l.Done(acquire(t, l), 429, ra) // a pause of 1s, then recovery
			time.Sleep(time.Minute)
			if got := l.Limits().String(); got != "48/1m,800/1h" {
				t.Errorf("after 1m: %s, want 48/1m,800/1h", got)
			}
			time.Sleep(time.Second)
			if got := l.Limits().String(); got != "51/1m,800/1h" {
				t.Errorf("after 1m1s: %s, want 51/1m,800/1h", got)
			}
			time.Sleep(time.Hour - time.Minute)
		}, "60/1m,850/1h"},
		{"recovers fully, never above", "60/1m,1000/1h", func(t *testing.T, l *pacer.Limiter) {
			l.Done(acquire(t, l), 429, ra)
			time.Sleep(10 * time.Hour)
		}, "60/1m,1000/1h"},
		{"a new 429 restarts recovery", "60/1m", func(t *testing.T, l *pacer.Limiter) {
			l.Done(acquire(t, l), 429, ra)
			time.Sleep(time.Minute + 30*time.Second) // 51
			l.Done(acquire(t, l), 429, ra)           // 40
			time.Sleep(59 * time.Second)
		}, "40/1m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l := pacer.NewLimiter(pacer.LimiterOptions{Limits: pacertest.Limits(t, tt.limits)})
				tt.run(t, l)
				if got := l.Limits().String(); got != tt.want {
					t.Errorf("Limits %s, want %s", got, tt.want)
				}
			})
		})
	}
}

// TestLimiterLowerLimitsPace checks that lowered limits really pace: after
// a cut to 48/1m, a minute holds 48 releases.
func TestLimiterLowerLimitsPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := pacer.NewLimiter(pacer.LimiterOptions{Limits: pacertest.Limits(t, "60/1m"), Margin: -1})
		start := time.Now()
		tk, _ := l.Acquire(t.Context())
		l.Done(tk, 429, http.Header{"Retry-After": {"1"}})
		times := paceHammer(t, l, 4, 48)
		// 47 more fill the count of 48 at the end of the pause...
		if got := times[46].Sub(start); got != time.Second {
			t.Errorf("48th request after %v, want 1s", got)
		}
		// ...and the next waits for the first to leave.
		if got := times[47].Sub(start); got != time.Minute {
			t.Errorf("49th request after %v, want 1m", got)
		}
	})
}

// TestLimiterHeaders checks what rate-limit headers teach the limiter.
func TestLimiterHeaders(t *testing.T) {
	tests := []struct {
		name   string
		limits string
		header http.Header
		want   string        // Limits right after
		later  string        // Limits after the longest window
		next   time.Duration // when the next request may leave
	}{
		{"policy lowers", "60/1m,1000/1h", http.Header{"Ratelimit-Policy": {"30;w=60, 1000;w=3600"}}, "30/1m,1000/1h", "30/1m,1000/1h", 0},
		{"policy never raises", "60/1m,1000/1h", http.Header{"Ratelimit-Policy": {"100;w=60, 5000;w=3600"}}, "60/1m,1000/1h", "60/1m,1000/1h", 0},
		{"policy of another window is ignored", "60/1m", http.Header{"Ratelimit-Policy": {"10;w=1"}}, "60/1m", "60/1m", 0},
		{"newer policy syntax", "60/1m", http.Header{"Ratelimit-Policy": {`"minute";q=45;w=60`}}, "45/1m", "45/1m", 0},
		{"hidden usage", "60/1m,1000/1h", http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"20"}}, "21/1m,1000/1h", "60/1m,1000/1h", 0},
		{"hidden usage by policy window", "60/1m,1000/1h", http.Header{
			"Ratelimit-Policy":      {"60;w=60, 1000;w=3600"},
			"X-Ratelimit-Limit":     {"1000"},
			"X-Ratelimit-Remaining": {"499"},
		}, "60/1m,500/1h", "60/1m,1000/1h", 0},
		{"no hidden usage", "60/1m", http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}}, "60/1m", "60/1m", 0},
		{"exhausted with a reset holds", "60/1m", http.Header{
			"X-Ratelimit-Limit":     {"60"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {"30"},
		}, "1/1m", "60/1m", 30 * time.Second},
		{"unknown limit is ignored", "60/1m", http.Header{"X-Ratelimit-Limit": {"7"}, "X-Ratelimit-Remaining": {"0"}}, "60/1m", "60/1m", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l := pacer.NewLimiter(pacer.LimiterOptions{Limits: pacertest.Limits(t, tt.limits)})
				tk, err := l.Acquire(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				l.Done(tk, http.StatusOK, tt.header)
				if got := l.Limits().String(); got != tt.want {
					t.Errorf("Limits %s, want %s", got, tt.want)
				}
				start := time.Now()
				if err := l.Wait(t.Context()); err != nil {
					t.Fatal(err)
				}
				if got := time.Since(start); got != tt.next {
					t.Errorf("next request after %v, want %v", got, tt.next)
				}
				time.Sleep(2 * time.Hour)
				if got := l.Limits().String(); got != tt.later {
					t.Errorf("Limits later %s, want %s", got, tt.later)
				}
			})
		})
	}
}

// TestLimiterETA compares ETA with the greedy schedule.
func TestLimiterETA(t *testing.T) {
	tests := []struct {
		limits string
		margin float64
		sent   int           // requests released before asking
		pause  time.Duration // a pause in force
		n      int
		want   time.Duration
	}{
		{"60/1m", -1, 0, 0, 0, 0},
		{"60/1m", -1, 0, 0, 1, 0},
		{"60/1m", -1, 0, 0, 60, 0},
		{"60/1m", -1, 0, 0, 61, time.Minute},
		{"60/1m", -1, 0, 0, 121, 2 * time.Minute},
		{"60/1m", -1, 30, 0, 31, time.Minute},
		{"60/1m", 0, 0, 0, 61, 60300 * time.Millisecond},
		{"60/1m", 0.1, 0, 0, 121, 132 * time.Second},
		{"60/1m,1000/1h", -1, 0, 0, 1001, time.Hour},
		{"60/1m,1000/1h", -1, 0, 0, 2000, time.Hour + 16*time.Minute},
		{"60/1m,1000/1h", 0, 0, 0, 1001, time.Hour + 18*time.Second},
		{"60/1m", -1, 0, 10 * time.Second, 1, 10 * time.Second},
		{"60/1m", -1, 0, 10 * time.Second, 61, 70 * time.Second},
		{"", -1, 0, 0, 1000, 0},
		{"", -1, 0, 5 * time.Second, 1000, 5 * time.Second},
	}
	for _, tt := range tests {
		name := tt.limits + "/margin=" + strconv.FormatFloat(tt.margin, 'g', -1, 64) + "/sent=" + strconv.Itoa(tt.sent) + "/pause=" + tt.pause.String() + "/n=" + strconv.Itoa(tt.n)
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l := pacer.NewLimiter(pacer.LimiterOptions{Limits: pacertest.Limits(t, tt.limits), Margin: tt.margin})
				for range tt.sent {
					if err := l.Wait(t.Context()); err != nil {
						t.Fatal(err)
					}
				}
				if tt.pause > 0 {
					l.Pause(tt.pause)
				}
				if got := l.ETA(tt.n); got != tt.want {
					t.Errorf("ETA(%d) = %v, want %v", tt.n, got, tt.want)
				}
			})
		})
	}
}

// TestLimiterETAMatchesGreedy checks ETA against the independent greedy
// schedule for many request counts.
func TestLimiterETAMatchesGreedy(t *testing.T) {
	for _, s := range []string{"60/1m,1000/1h", "20/1s,120/6s", "5/1s,7/2s,9/10s"} {
		t.Run(s, func(t *testing.T) {
			ls := pacertest.Limits(t, s)
			l := pacer.NewLimiter(pacer.LimiterOptions{Limits: ls, Now: func() time.Time { return time.Unix(0, 0) }})
			g := pacertest.Greedy(3000, paceStretch(ls, pacer.DefaultMargin))
			for _, n := range []int{1, 2, 19, 20, 21, 59, 60, 61, 119, 120, 121, 999, 1000, 1001, 2999, 3000} {
				if got := l.ETA(n); got != g[n-1] {
					t.Errorf("ETA(%d) = %v, want %v", n, got, g[n-1])
				}
			}
		})
	}
}

// TestLimiterNoLimits checks that an empty list paces nothing but still
// pauses.
func TestLimiterNoLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := pacer.NewLimiter(pacer.LimiterOptions{Limits: ratelimit.Limits{}})
		start := time.Now()
		for range 10_000 {
			if err := l.Wait(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		if time.Since(start) != 0 || l.String() != "no limit" {
			t.Fatalf("%v for 10000 requests without limits (%s)", time.Since(start), l)
		}
		l.Observe(http.StatusTooManyRequests, nil)
		if until, ok := l.Paused(); !ok || until.Sub(start) != time.Minute {
			t.Fatalf("Paused() = %v, %v", until.Sub(start), ok)
		}
		if err := l.Wait(t.Context()); err != nil || time.Since(start) != time.Minute {
			t.Fatalf("after a 429: %v, %v", time.Since(start), err)
		}
	})
}

// TestLimiterDefaultLimits checks that nil Limits means the API's.
func TestLimiterDefaultLimits(t *testing.T) {
	if got := pacer.NewLimiter(pacer.LimiterOptions{}).Limits().String(); got != "60/1m,1000/1h" {
		t.Fatalf("Limits %s", got)
	}
}
