package pacer_test

import (
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/ratelimit"
)

var hdrNow = time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)

func TestParseRateLimitPolicy(t *testing.T) {
	tests := []struct {
		in   string
		want string // ratelimit.Limits.String()
	}{
		{"60;w=60, 1000;w=3600", "60/1m,1000/1h"},
		{"60;w=60,1000;w=3600", "60/1m,1000/1h"},
		{"10, 10;w=1, 50;w=60", "10/1s,50/1m"}, // an item without a window is left out
		{`"default";q=100;w=60`, "100/1m"},
		{`"burst";q=20;w=1, "daily";q=5000;w=86400`, "20/1s,5000/24h"},
		{`"default";q=100;w=60;pk=:abc=:`, "100/1m"},
		{"60;W=60", "60/1m"},
		{`60;w="60"`, "60/1m"},
		{"", ""},
		{"garbage", ""},
		{"0;w=60", ""},
		{"-5;w=60", ""},
		{"60;w=0", ""},
		{"60;w=-1", ""},
		{"60;w=x", ""},
		{"60;w=99999999999", ""},
		{"2000000;w=60", ""},
		{strings.Repeat("1;w=1,", 40), strings.TrimSuffix(strings.Repeat("1/1s,", 16), ",")},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := pacer.ParseRateLimitPolicy(tt.in).String(); got != tt.want {
				t.Errorf("ParseRateLimitPolicy(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		v, date string
		want    time.Duration
		ok      bool
	}{
		{"120", "", 2 * time.Minute, true},
		{" 7 ", "", 7 * time.Second, true},
		{"0", "", 0, true},
		{"1.5", "", 1500 * time.Millisecond, true},
		{"1e400", "", 100 * 365 * 24 * time.Hour, true},
		{"", "", 0, false},
		{"-1", "", 0, false},
		{"soon", "", 0, false},
		{"12abc", "", 0, false},
		{"Sun, 22 Nov 2026 03:01:30 GMT", "", 90 * time.Second, true},
		{"Sun, 22 Nov 2026 02:59:00 GMT", "", 0, true}, // in the past
		// Relative to the Date header: the local clock's skew does not matter.
		{"Sun, 22 Nov 2026 05:00:30 GMT", "Sun, 22 Nov 2026 05:00:00 GMT", 30 * time.Second, true},
		{"Sun, 22 Nov 2026 03:00:30 GMT", "not a date", 30 * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.v+"|"+tt.date, func(t *testing.T) {
			got, ok := pacer.ParseRetryAfter(tt.v, tt.date, hdrNow)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ParseRetryAfter(%q, %q) = %v, %v; want %v, %v", tt.v, tt.date, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseRateHeaders(t *testing.T) {
	tests := []struct {
		name string
		h    http.Header
		want pacer.RateHeaders
	}{
		{"none", http.Header{}, pacer.RateHeaders{}},
		{"sandbox", http.Header{
			"Ratelimit-Policy":      {"60;w=60, 1000;w=3600"},
			"X-Ratelimit-Limit":     {"60"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {"35"},
			"Retry-After":           {"35"},
		}, pacer.RateHeaders{
			Policy: ratelimit.Limits{{Count: 60, Window: time.Minute}, {Count: 1000, Window: time.Hour}},
			Limit:  60, HasLimit: true, Remaining: 0, HasRemaining: true,
			Reset: 35 * time.Second, HasReset: true, RetryAfter: 35 * time.Second, HasRetryAfter: true,
		}},
		{"IETF names", http.Header{
			"Ratelimit-Limit":     {"100"},
			"Ratelimit-Remaining": {"42"},
			"Ratelimit-Reset":     {"12"},
		}, pacer.RateHeaders{Limit: 100, HasLimit: true, Remaining: 42, HasRemaining: true, Reset: 12 * time.Second, HasReset: true}},
		{"Unix reset", http.Header{"X-Ratelimit-Reset": {strconv.FormatInt(hdrNow.Add(90*time.Second).Unix(), 10)}},
			pacer.RateHeaders{Reset: 90 * time.Second, HasReset: true}},
		{"Unix reset in the past", http.Header{"X-Ratelimit-Reset": {strconv.FormatInt(hdrNow.Add(-time.Hour).Unix(), 10)}},
			pacer.RateHeaders{Reset: 0, HasReset: true}},
		{"list of values", http.Header{"X-Ratelimit-Limit": {"60, 1000"}, "X-Ratelimit-Remaining": {"3, 900"}},
			pacer.RateHeaders{Limit: 60, HasLimit: true, Remaining: 3, HasRemaining: true}},
		{"remaining above limit", http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"99"}},
			pacer.RateHeaders{Limit: 60, HasLimit: true, Remaining: 60, HasRemaining: true}},
		{"malformed", http.Header{
			"X-Ratelimit-Limit":     {"lots"},
			"X-Ratelimit-Remaining": {"-3"},
			"X-Ratelimit-Reset":     {"NaN"},
			"Retry-After":           {"later"},
		}, pacer.RateHeaders{}},
		{"zero limit", http.Header{"X-Ratelimit-Limit": {"0"}}, pacer.RateHeaders{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := pacer.ParseRateHeaders(tt.h, hdrNow)
			if got.Policy.String() != tt.want.Policy.String() {
				t.Errorf("Policy %v, want %v", got.Policy, tt.want.Policy)
			}
			got.Policy, tt.want.Policy = nil, nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseRateHeaders = %+v\nwant %+v", got, tt.want)
			}
		})
	}
	if got := pacer.ParseRateHeaders(nil, hdrNow); got.HasLimit || got.HasRetryAfter || len(got.Policy) > 0 {
		t.Errorf("nil header: %+v", got)
	}
}

// FuzzParseRateLimitPolicy checks that the policy parser never panics,
// keeps only sane limits, and reads its own rendering back the same.
func FuzzParseRateLimitPolicy(f *testing.F) {
	for _, s := range []string{"60;w=60, 1000;w=3600", `"default";q=100;w=60`, "10, 10;w=1", ";;;,,,=", `"a";q=;w=`, "1;w=2678400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ls := pacer.ParseRateLimitPolicy(s)
		if len(ls) > 16 {
			t.Fatalf("%d items", len(ls))
		}
		parts := make([]string, len(ls))
		for i, l := range ls {
			if l.Count < 1 || l.Count > 1_000_000 || l.Window < time.Second || l.Window > 31*24*time.Hour || l.Window%time.Second != 0 {
				t.Fatalf("insane limit %+v from %q", l, s)
			}
			parts[i] = strconv.Itoa(l.Count) + ";w=" + strconv.Itoa(int(l.Window/time.Second))
		}
		if again := pacer.ParseRateLimitPolicy(strings.Join(parts, ", ")); again.String() != ls.String() {
			t.Fatalf("%q: %v, then %v", s, ls, again)
		}
	})
}

// FuzzParseRateHeaders checks that header parsing never panics and yields
// only sane values.
func FuzzParseRateHeaders(f *testing.F) {
	f.Add("60;w=60", "60", "0", "35", "35", "")
	f.Add("", "1000", "999", "1795000000", "Sun, 22 Nov 2026 03:01:30 GMT", "Sun, 22 Nov 2026 03:00:00 GMT")
	f.Add("x", "-1", "1e99", "NaN", "+Inf", "garbage")
	f.Fuzz(func(t *testing.T, policy, limit, remaining, reset, retryAfter, date string) {
		h := http.Header{}
		for k, v := range map[string]string{"RateLimit-Policy": policy, "X-RateLimit-Limit": limit, "X-RateLimit-Remaining": remaining, "X-RateLimit-Reset": reset, "Retry-After": retryAfter, "Date": date} {
			if v != "" {
				h.Set(k, v)
			}
		}
		r := pacer.ParseRateHeaders(h, hdrNow)
		switch {
		case r.HasLimit && r.Limit < 1, r.HasRemaining && r.Remaining < 0,
			r.HasLimit && r.HasRemaining && r.Remaining > r.Limit,
			r.Reset < 0, r.RetryAfter < 0, !r.HasReset && r.Reset != 0, !r.HasRetryAfter && r.RetryAfter != 0:
			t.Fatalf("insane %+v", r)
		}
	})
}
