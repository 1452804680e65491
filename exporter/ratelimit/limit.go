package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limit is one request-rate limit: at most Count requests in any window of
// length Window.
type Limit struct {
	Count  int
	Window time.Duration
}

// String formats l the way Parse reads it, for example "60/1m".
func (l Limit) String() string {
	return strconv.Itoa(l.Count) + "/" + formatWindow(l.Window)
}

func formatWindow(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	default:
		return d.String()
	}
}

// Limits is a list of limits that hold together.
type Limits []Limit

// String formats ls the way Parse reads it, for example "60/1m,1000/1h".
func (ls Limits) String() string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.String()
	}
	return strings.Join(parts, ",")
}

// Default is the documented limit of the Curriculum Content API.
func Default() Limits {
	return Limits{{Count: 60, Window: time.Minute}, {Count: 1000, Window: time.Hour}}
}

// maxCount bounds a single limit's count, so that a typo cannot make a log
// allocate without bound.
const maxCount = 1_000_000

// Parse reads a comma-separated list of COUNT/WINDOW pairs such as
// "60/1m,1000/1h". WINDOW is a Go duration ("1m", "90s", "1h30m") or a bare
// unit ("s", "m", "h", meaning one of it). An empty string or "none" means
// no limit and yields an empty list.
func Parse(s string) (Limits, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return Limits{}, nil
	}
	var ls Limits
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		count, window, ok := strings.Cut(part, "/")
		if !ok {
			return nil, fmt.Errorf("rate limit %q: want COUNT/WINDOW, such as 60/1m", part)
		}
		n, err := strconv.Atoi(strings.TrimSpace(count))
		if err != nil || n < 1 || n > maxCount {
			return nil, fmt.Errorf("rate limit %q: count must be a whole number from 1 to %d", part, maxCount)
		}
		w, err := parseWindow(strings.TrimSpace(window))
		if err != nil {
			return nil, fmt.Errorf("rate limit %q: %w", part, err)
		}
		ls = append(ls, Limit{Count: n, Window: w})
	}
	return ls, nil
}

func parseWindow(s string) (time.Duration, error) {
	switch s {
	case "s", "sec", "second":
		return time.Second, nil
	case "m", "min", "minute":
		return time.Minute, nil
	case "h", "hour":
		return time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("window %q is not a duration such as 1m or 1h", s)
	}
	if d < time.Millisecond || d > 31*24*time.Hour {
		return 0, fmt.Errorf("window %q must be between 1ms and 31 days", s)
	}
	return d, nil
}
