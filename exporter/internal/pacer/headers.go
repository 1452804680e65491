package pacer

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
)

// RateHeaders is what a response says about the server's rate limits. The
// API specification promises none of it but Retry-After on 429 (section
// 8); the sandbox sends the rest with --rate-limit-headers, as many APIs
// do.
type RateHeaders struct {
	// Policy is RateLimit-Policy: the limits the server announces, such as
	// "60;w=60, 1000;w=3600" (or the newer `"name";q=60;w=60` items).
	// Items without a window are left out.
	Policy ratelimit.Limits
	// Limit and Remaining are X-RateLimit-Limit and X-RateLimit-Remaining
	// (or RateLimit-Limit and RateLimit-Remaining): the count of the
	// tightest limit and how many requests it has left.
	Limit, Remaining       int
	HasLimit, HasRemaining bool
	// Reset is X-RateLimit-Reset (or RateLimit-Reset): how long until the
	// limit has room again. A number above 10⁹ is read as a Unix time.
	Reset    time.Duration
	HasReset bool
	// RetryAfter is Retry-After: seconds, or an HTTP date taken relative
	// to the response's Date header when it has one.
	RetryAfter    time.Duration
	HasRetryAfter bool
}

// maxWait bounds every wait read from a header, so that adding it to a time
// cannot overflow.
const maxWait = 100 * 365 * 24 * time.Hour

// maxPolicyItems bounds how much of a RateLimit-Policy header is read.
const maxPolicyItems = 16

// ParseRateHeaders reads the rate-limit headers of a response received at
// now. Malformed values are left out, never guessed.
func ParseRateHeaders(h http.Header, now time.Time) RateHeaders {
	var r RateHeaders
	if h == nil {
		return r
	}
	r.Policy = ParseRateLimitPolicy(strings.Join(h.Values("RateLimit-Policy"), ","))
	r.Limit, r.HasLimit = headerCount(h, "X-RateLimit-Limit", "RateLimit-Limit")
	r.Remaining, r.HasRemaining = headerCount(h, "X-RateLimit-Remaining", "RateLimit-Remaining")
	if r.HasLimit && r.Limit < 1 {
		r.HasLimit = false
	}
	if r.HasLimit && r.HasRemaining && r.Remaining > r.Limit {
		r.Remaining = r.Limit
	}
	for _, name := range []string{"X-RateLimit-Reset", "RateLimit-Reset"} {
		if v := h.Get(name); v != "" {
			r.Reset, r.HasReset = parseReset(v, now)
			break
		}
	}
	r.RetryAfter, r.HasRetryAfter = ParseRetryAfter(h.Get("Retry-After"), h.Get("Date"), now)
	return r
}

// headerCount reads the first of names that is present as a whole number
// of at least 0.
func headerCount(h http.Header, names ...string) (int, bool) {
	for _, name := range names {
		v := strings.TrimSpace(h.Get(name))
		if v == "" {
			continue
		}
		// Some servers list one value per limit ("60, 1000"): take the first.
		v, _, _ = strings.Cut(v, ",")
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return 0, false
		}
		return n, true
	}
	return 0, false
}

// parseReset reads a reset as seconds from now, or as a Unix time when it
// is above 10⁹ (GitHub's convention).
func parseReset(v string, now time.Time) (time.Duration, bool) {
	v, _, _ = strings.Cut(strings.TrimSpace(v), ",")
	secs, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(secs) || math.IsInf(secs, 0) || secs < 0 {
		return 0, false
	}
	if secs > 1e9 {
		if now.IsZero() || secs > 1e12 {
			return 0, false
		}
		return clampWait(time.Unix(int64(secs), 0).Sub(now)), true
	}
	return clampWait(time.Duration(secs * float64(time.Second))), true
}

func clampWait(d time.Duration) time.Duration {
	return min(max(d, 0), maxWait)
}

// ParseRetryAfter reads a Retry-After header as api.ParseRetryAfter does,
// except that an HTTP date with neither a Date header nor a clock (now is
// zero) is unusable.
func ParseRetryAfter(v, date string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v != "" && (v[0] < '0' || v[0] > '9') && now.IsZero() {
		if _, err := http.ParseTime(strings.TrimSpace(date)); err != nil {
			return 0, false
		}
	}
	d, ok := api.ParseRetryAfter(v, date, now)
	if !ok {
		return 0, false
	}
	return clampWait(d), true
}

// ParseRateLimitPolicy reads a RateLimit-Policy header into limits. Items
// are separated by commas; each has a count, either first ("60;w=60", the
// older drafts) or as the q parameter (`"burst";q=60;w=60`, the newer
// ones), and a window w in seconds. Items without a usable count or window
// are left out, as is everything past the 16th item.
func ParseRateLimitPolicy(v string) ratelimit.Limits {
	var out ratelimit.Limits
	for item := range strings.SplitSeq(v, ",") {
		if len(out) == maxPolicyItems {
			break
		}
		params := strings.Split(item, ";")
		count, window := -1, time.Duration(0)
		if n, err := strconv.Atoi(strings.TrimSpace(params[0])); err == nil {
			count = n
		}
		for _, p := range params[1:] {
			k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
			if !ok {
				continue
			}
			n, err := strconv.Atoi(strings.Trim(strings.TrimSpace(val), `"`))
			if err != nil {
				continue
			}
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "q":
				count = n
			case "w":
				if n >= 1 && n <= 31*24*3600 {
					window = time.Duration(n) * time.Second
				}
			}
		}
		if count >= 1 && count <= 1_000_000 && window > 0 {
			out = append(out, ratelimit.Limit{Count: count, Window: window})
		}
	}
	return out
}
