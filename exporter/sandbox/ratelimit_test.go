package sandbox_test

import (
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

var wholeSeconds = regexp.MustCompile(`^[1-9][0-9]*$`)

func mustLimits(t testing.TB, s string) ratelimit.Limits {
	t.Helper()
	ls, err := ratelimit.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// want429 checks a rate-limit refusal and returns its Retry-After in
// seconds.
func want429(t testing.TB, rec *httptest.ResponseRecorder) int {
	t.Helper()
	details := checkError(t, rec, http.StatusTooManyRequests, "rate_limit_exceeded")
	ra := rec.Header().Get("Retry-After")
	if !wholeSeconds.MatchString(ra) {
		t.Fatalf("Retry-After %q, want whole seconds", ra)
	}
	n, _ := strconv.Atoi(ra)
	if got := num(t, details, "retry_after"); got != n {
		t.Errorf("details.retry_after %d, Retry-After %d", got, n)
	}
	return n
}

func wantOK(t testing.TB, rec *httptest.ResponseRecorder, what string) {
	t.Helper()
	if rec.Code != http.StatusOK {
		t.Fatalf("%s: status %d, want 200; body %s", what, rec.Code, rec.Body)
	}
}

// TestRateLimitMinute fills the minute window of "60/1m,1000/1h" in virtual
// time and checks the refusal, its Retry-After and the window sliding on.
func TestRateLimitMinute(t *testing.T) {
	ds := tinyDataset(t)
	synctest.Test(t, func(t *testing.T) {
		h := newHandler(t, ds, sandbox.Options{Limits: mustLimits(t, "60/1m,1000/1h")})
		wantOK(t, get(t, h, "/api/v1/me", tokA), "request 1 at t0")
		time.Sleep(10 * time.Second)
		for i := range 59 {
			wantOK(t, get(t, h, "/api/v1/curricula/b1", tokA), "request "+strconv.Itoa(i+2)+" at t0+10s")
		}
		time.Sleep(15*time.Second + 500*time.Millisecond) // t0+25.5s
		rec := get(t, h, "/api/v1/me", tokA)
		// The request at t0 leaves the window at t0+60s: 34.5s, rounded up.
		if got := want429(t, rec); got != 35 {
			t.Errorf("Retry-After %d, want 35", got)
		}
		details := checkError(t, rec, http.StatusTooManyRequests, "rate_limit_exceeded")
		if details["limits"] != "60/1m,1000/1h" {
			t.Errorf("details.limits %v", details["limits"])
		}
		// Refusals are not counted, and other tokens have their own windows.
		for range 5 {
			want429(t, get(t, h, "/api/v1/me", tokA))
		}
		wantOK(t, get(t, h, "/api/v1/me", tokB), "another token")

		time.Sleep(34*time.Second + 500*time.Millisecond) // t0+60s
		wantOK(t, get(t, h, "/api/v1/me", tokA), "request at t0+60s")
		// Now the 59 requests of t0+10s fill the window until t0+70s.
		if got := want429(t, get(t, h, "/api/v1/me", tokA)); got != 10 {
			t.Errorf("Retry-After %d, want 10", got)
		}
		time.Sleep(10 * time.Second) // t0+70s: only the request of t0+60s is left
		for i := range 59 {
			wantOK(t, get(t, h, "/api/v1/me", tokA), "request "+strconv.Itoa(i+1)+" at t0+70s")
		}
		if got := want429(t, get(t, h, "/api/v1/me", tokA)); got != 50 {
			t.Errorf("Retry-After %d, want 50", got)
		}
	})
}

// TestRateLimitHour spreads 1000 requests over the hour: the minute window
// always has room, the hour window refuses the 1001st.
func TestRateLimitHour(t *testing.T) {
	ds := tinyDataset(t)
	synctest.Test(t, func(t *testing.T) {
		h := newHandler(t, ds, sandbox.Options{Limits: mustLimits(t, "60/1m,1000/1h"), RateLimitHeaders: true})
		const gap = 3600 * time.Millisecond // about 17 a minute
		start := time.Now()
		for i := range 1000 {
			if i > 0 {
				time.Sleep(gap)
			}
			rec := get(t, h, "/api/v1/me", tokA)
			wantOK(t, rec, "request "+strconv.Itoa(i+1))
		}
		time.Sleep(600 * time.Millisecond) // t0+3597s
		rec := get(t, h, "/api/v1/me", tokA)
		if got := want429(t, rec); got != 3 {
			t.Errorf("Retry-After %d, want 3 (the first request leaves the hour at t0+3600s)", got)
		}
		if got := rec.Header().Get("X-RateLimit-Limit"); got != "1000" {
			t.Errorf("X-RateLimit-Limit %q, want 1000 (the hour is the tightest limit)", got)
		}
		if time.Since(start) >= time.Hour {
			t.Fatalf("test error: %v elapsed", time.Since(start))
		}
		time.Sleep(3 * time.Second)
		wantOK(t, get(t, h, "/api/v1/me", tokA), "request at t0+3600s")
		// The next one waits for the request of t0+3.6s: 3.6s, rounded up.
		if got := want429(t, get(t, h, "/api/v1/me", tokA)); got != 4 {
			t.Errorf("Retry-After %d, want 4", got)
		}
		wantOK(t, get(t, h, "/api/v1/me", tokB), "another token")
	})
}

// TestRateLimitDefault checks that nil Limits mean the API's 60/1m.
func TestRateLimitDefault(t *testing.T) {
	ds := tinyDataset(t)
	synctest.Test(t, func(t *testing.T) {
		h := newHandler(t, ds, sandbox.Options{})
		for i := range 60 {
			wantOK(t, get(t, h, "/api/v1/me", tokA), "request "+strconv.Itoa(i+1))
		}
		if got := want429(t, get(t, h, "/api/v1/me", tokA)); got != 60 {
			t.Errorf("Retry-After %d, want 60", got)
		}
		time.Sleep(time.Minute)
		wantOK(t, get(t, h, "/api/v1/me", tokA), "a minute later")
	})
}

// TestRateLimitCounting checks what counts: every authenticated request,
// errors and 304s included; not requests with a bad token; per token.
func TestRateLimitCounting(t *testing.T) {
	ds := tinyDataset(t)
	synctest.Test(t, func(t *testing.T) {
		h := newHandler(t, ds, sandbox.Options{Limits: mustLimits(t, "4/1m")})
		for range 10 {
			checkError(t, get(t, h, "/api/v1/me", "wrong"), http.StatusUnauthorized, "unauthorized")
			checkError(t, get(t, h, "/api/v1/me", tokOld+"x"), http.StatusUnauthorized, "unauthorized")
		}
		etag := get(t, h, "/api/v1/me", tokA).Header().Get("ETag")                                           // 1
		checkError(t, get(t, h, "/api/v1/nope", tokA), http.StatusNotFound, "not_found")                     // 2
		checkError(t, get(t, h, "/api/v1/curricula/other", tokA), http.StatusForbidden, "forbidden")         // 3
		if rec := get(t, h, "/api/v1/me", tokA, "If-None-Match", etag); rec.Code != http.StatusNotModified { // 4
			t.Fatalf("304 expected, got %d", rec.Code)
		}
		want429(t, get(t, h, "/api/v1/me", tokA))
		// Bad requests are refused before they are looked at.
		want429(t, get(t, h, "/api/v1/curricula?page=0", tokA))
		for i := range 4 {
			wantOK(t, get(t, h, "/api/v1/me", tokB), "tok-b "+strconv.Itoa(i+1))
		}
		want429(t, get(t, h, "/api/v1/me", tokB))
		// A bad token is still 401, not 429.
		checkError(t, get(t, h, "/api/v1/me", "wrong"), http.StatusUnauthorized, "unauthorized")
	})
}

// TestRateLimitOptions checks OmitRetryAfter, RateLimitHeaders and empty
// Limits.
func TestRateLimitOptions(t *testing.T) {
	ds := tinyDataset(t)
	t.Run("OmitRetryAfter", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := newHandler(t, ds, sandbox.Options{Limits: mustLimits(t, "1/1m"), OmitRetryAfter: true})
			wantOK(t, get(t, h, "/api/v1/me", tokA), "first")
			rec := get(t, h, "/api/v1/me", tokA)
			details := checkError(t, rec, http.StatusTooManyRequests, "rate_limit_exceeded")
			if _, ok := rec.Header()["Retry-After"]; ok {
				t.Errorf("Retry-After %q sent", rec.Header().Get("Retry-After"))
			}
			if num(t, details, "retry_after") != 60 {
				t.Errorf("details.retry_after %v, want 60", details["retry_after"])
			}
		})
	})
	t.Run("RateLimitHeaders", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := newHandler(t, ds, sandbox.Options{Limits: mustLimits(t, "5/1m,100/1h"), RateLimitHeaders: true})
			targets := []string{"/api/v1/me", "/api/v1/curricula", "/api/v1/me/", "/api/v1/curricula?page=0", "/api/v1/nope"}
			for i, target := range targets {
				rec := get(t, h, target, tokA)
				hd := rec.Header()
				if got := hd.Get("RateLimit-Policy"); got != "5;w=60, 100;w=3600" {
					t.Errorf("%s: RateLimit-Policy %q", target, got)
				}
				if hd.Get("X-RateLimit-Limit") != "5" || hd.Get("X-RateLimit-Remaining") != strconv.Itoa(4-i) {
					t.Errorf("request %d: X-RateLimit-Limit %q Remaining %q, want 5 and %d", i+1, hd.Get("X-RateLimit-Limit"), hd.Get("X-RateLimit-Remaining"), 4-i)
				}
				wantReset := "0"
				if i == 4 {
					wantReset = "56" // the request of t0 leaves at t0+60s; this is t0+4s
				}
				if got := hd.Get("X-RateLimit-Reset"); got != wantReset {
					t.Errorf("request %d: X-RateLimit-Reset %q, want %s", i+1, got, wantReset)
				}
				time.Sleep(time.Second)
			}
			rec := get(t, h, "/api/v1/me", tokA)
			if got := want429(t, rec); got != 55 {
				t.Errorf("Retry-After %d, want 55", got)
			}
			if rec.Header().Get("X-RateLimit-Remaining") != "0" || rec.Header().Get("RateLimit-Policy") == "" {
				t.Errorf("429 headers %v", rec.Header())
			}
			// Unauthenticated answers carry none.
			if rec := get(t, h, "/api/v1/me", ""); rec.Header().Get("RateLimit-Policy") != "" {
				t.Error("401 with rate-limit headers")
			}
		})
	})
	t.Run("no headers by default", func(t *testing.T) {
		h := newHandler(t, ds, sandbox.Options{})
		if rec := get(t, h, "/api/v1/me", tokA); rec.Header().Get("RateLimit-Policy") != "" || rec.Header().Get("X-RateLimit-Remaining") != "" {
			t.Errorf("headers %v", rec.Header())
		}
	})
	t.Run("no limits", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := newHandler(t, ds, sandbox.Options{Limits: noLimits, RateLimitHeaders: true})
			for i := range 2000 {
				rec := get(t, h, "/api/v1/me", tokA)
				wantOK(t, rec, "request "+strconv.Itoa(i+1))
				if rec.Header().Get("RateLimit-Policy") != "" {
					t.Fatal("rate-limit headers without limits")
				}
			}
		})
	})
}

// TestRateLimitBruteForce hammers the handler with random gaps and checks
// every answer against a model of the sliding windows: no window ever holds
// more accepted requests than its limit, no request is refused that fits,
// and every Retry-After is the rounded-up wait.
func TestRateLimitBruteForce(t *testing.T) {
	ds := tinyDataset(t)
	limits := ratelimit.Limits{{Count: 5, Window: time.Second}, {Count: 20, Window: 10 * time.Second}, {Count: 60, Window: time.Minute}}
	for _, seed := range []uint64{1, 2, 3} {
		t.Run("seed "+strconv.FormatUint(seed, 10), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHandler(t, ds, sandbox.Options{Limits: limits})
				rng := rand.New(rand.NewPCG(seed, 99))
				var accepted []time.Time
				var ok, refused int
				for i := range 1500 {
					switch r := rng.IntN(10); {
					case r < 3: // a burst: no gap
					case r < 8:
						time.Sleep(time.Duration(rng.IntN(400)) * time.Millisecond)
					default:
						time.Sleep(time.Duration(rng.IntN(5000)) * time.Millisecond)
					}
					now := time.Now()
					var wait time.Duration
					for _, l := range limits {
						in := 0
						for _, a := range accepted {
							if a.After(now.Add(-l.Window)) {
								in++
							}
						}
						if in >= l.Count {
							wait = max(wait, accepted[len(accepted)-l.Count].Add(l.Window).Sub(now))
						}
					}
					rec := get(t, h, "/api/v1/me", tokA)
					if wait == 0 {
						if rec.Code != http.StatusOK {
							t.Fatalf("request %d at %v: status %d, but it fits every window", i, now, rec.Code)
						}
						accepted = append(accepted, now)
						ok++
						continue
					}
					refused++
					if got, want := want429(t, rec), max(1, int(math.Ceil(wait.Seconds()))); got != want {
						t.Fatalf("request %d: Retry-After %d, want %d (wait %v)", i, got, want, wait)
					}
				}
				if ok < 100 || refused < 100 {
					t.Fatalf("accepted %d, refused %d: the load does not exercise the limits", ok, refused)
				}
				// Independently of the model: no window holds too many.
				for _, l := range limits {
					for i, end := range accepted {
						in := 0
						for _, a := range accepted[:i+1] {
							if a.After(end.Add(-l.Window)) {
								in++
							}
						}
						if in > l.Count {
							t.Fatalf("%d accepted in the %v window ending %v, limit %d", in, l.Window, end, l.Count)
						}
					}
				}
			})
		})
	}
}
