package fetch_test

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/pacer/pacertest"
	"github.com/curex/curex/exporter/internal/testtrees"
	"github.com/curex/curex/exporter/sandbox"
)

// scheduleWorkloads are export-shaped runs through Transport to the
// sandbox, with the same limits on both sides.
var scheduleWorkloads = []struct {
	name     string
	limits   string
	requests int
	workers  int
	latency  sandbox.Latency
}{
	{"scaled", "20/1s,120/6s", 500, 4, sandbox.Latency{Base: 30 * time.Millisecond, PerKB: 100 * time.Microsecond}},
	{"api", "60/1m,1000/1h", 1200, 4, sandbox.Latency{Base: 30 * time.Millisecond, PerKB: 100 * time.Microsecond}},
}

// scheduleMetricsEnv makes TestLimiterSchedule print its figures for
// BenchmarkLimiterSchedule.
const scheduleMetricsEnv = "CUREX_SCHEDULE_METRICS"

// TestLimiterSchedule runs the workloads in virtual time and holds them to
// the goals: no 429, the span within 5% of the greedy minimum for the
// request count, and the busiest window of each limit at 98–100% of it.
func TestLimiterSchedule(t *testing.T) {
	for _, w := range scheduleWorkloads {
		t.Run(w.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ls := pacertest.Limits(t, w.limits)
				s := trNew(t, sandbox.Options{Limits: ls, Latency: w.latency}, pacer.LimiterOptions{Limits: ls}, 0)
				limited := s.run(t, t.Context(), w.workers, w.requests)
				arr := s.rec.arrivals()
				span := arr[len(arr)-1].Sub(arr[0])
				minimum := pacertest.Greedy(w.requests, ls)[w.requests-1]
				ratio := float64(span) / float64(minimum)
				metrics := []string{
					fmt.Sprintf("span/min %.4f", ratio),
					fmt.Sprintf("429s %d", limited),
					fmt.Sprintf("span-s %.1f", span.Seconds()),
					fmt.Sprintf("min-s %.1f", minimum.Seconds()),
				}
				if limited != 0 {
					t.Errorf("earned %d × 429", limited)
				}
				if ratio > 1.05 {
					t.Errorf("span %v is %.3f × the minimum %v", span, ratio, minimum)
				}
				for _, lim := range ls {
					use := float64(pacertest.Peak(arr, lim.Window)) / float64(lim.Count)
					metrics = append(metrics, fmt.Sprintf("busiest-%d/%s %.4f", lim.Count, strings.TrimPrefix(lim.String(), strconv.Itoa(lim.Count)+"/"), use))
					if use < 0.98 || use > 1 {
						t.Errorf("%v: busiest window at %.3f of the limit", lim, use)
					}
				}
				t.Logf("%s: %s", w.limits, strings.Join(metrics, ", "))
				if os.Getenv(scheduleMetricsEnv) != "" {
					for _, m := range metrics {
						fmt.Printf("METRIC %s\n", m)
					}
				}
			})
		})
	}
}

// BenchmarkLimiterSchedule reports the schedule figures of each workload:
// span/min (request span over the greedy minimum), 429s, and the busiest
// window's use of each limit. The workload runs in a testing/synctest
// bubble, which needs a *testing.T, so the benchmark runs
// TestLimiterSchedule in a child process and reads its figures; ns/op is
// the cost of that whole virtual-time run.
func BenchmarkLimiterSchedule(b *testing.B) {
	for _, w := range scheduleWorkloads {
		b.Run(w.name, func(b *testing.B) {
			var out []byte
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestLimiterSchedule$/^"+w.name+"$", "-test.count=1")
				cmd.Env = append(os.Environ(), scheduleMetricsEnv+"=1")
				var err error
				if out, err = cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
			}
			testtrees.ReportMetrics(b, out)
		})
	}
}
