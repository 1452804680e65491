package progress_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/progress"
	"github.com/curex/curex/exporter/ratelimit"
)

// TestETAAccountsForLatency (issue 26 §5): against an API answering in
// 300 ms under generous limits, progress said "about 0s left": the
// estimate was the rate limits' schedule alone, which knows nothing of
// latency. It is now the longer of that and the time the trees done so
// far took each. The clock is injected: each tree takes 300 ms of it.
func TestETAAccountsForLatency(t *testing.T) {
	const trees = 10
	for _, tc := range []struct {
		name   string
		limits ratelimit.Limits
		// after the first tree (300 ms in), the estimate is in [least, most].
		least, most time.Duration
	}{
		// 9 trees left at 300 ms each: the latency seen.
		{"latency, no limits", ratelimit.Limits{}, 2700 * time.Millisecond, 2700 * time.Millisecond},
		// 9 requests at one a second: the limits, longer than the latency.
		{"limits slower than latency", ratelimit.Limits{{Count: 1, Window: time.Second}}, 8 * time.Second, 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			clock := func() time.Time { return now }
			var buf bytes.Buffer
			p := &progress.Lines{W: &buf, Every: 0}
			p.Now = clock
			p.Planned(trees, trees, pacer.NewLimiter(pacer.LimiterOptions{Limits: tc.limits, Margin: -1, Now: clock}))
			var etas []time.Duration
			for i := range trees {
				now = now.Add(300 * time.Millisecond)
				p.TreeDone(fetch.Result{}, fetch.StatsSnapshot{Requests: int64(i + 1)})
				lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
				etas = append(etas, etaOf(t, lines[len(lines)-1]))
			}
			if got := etas[0]; got < tc.least || got > tc.most {
				t.Errorf("after the first tree: about %s left, want between %s and %s", got, tc.least, tc.most)
			}
			if got := etas[trees-1]; got != 0 {
				t.Errorf("after the last tree: about %s left, want 0s", got)
			}
			for i := 1; i < trees; i++ {
				if etas[i] > etas[i-1] {
					t.Errorf("the estimate grew from %s to %s at tree %d with every tree as slow", etas[i-1], etas[i], i+1)
				}
			}
		})
	}
}

// etaOf reads "about D left" off a progress line.
func etaOf(t *testing.T, line string) time.Duration {
	t.Helper()
	_, rest, ok := strings.Cut(line, "about ")
	d, _, ok2 := strings.Cut(rest, " left")
	if !ok || !ok2 {
		t.Fatalf("no estimate in %q", line)
	}
	v, err := time.ParseDuration(d)
	if err != nil {
		t.Fatalf("estimate %q in %q: %v", d, line, err)
	}
	return v
}
