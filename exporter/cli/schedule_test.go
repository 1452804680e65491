package cli

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fresh"
)

func TestScheduleFlags(t *testing.T) {
	now := time.Date(2026, 11, 25, 2, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name     string
		f        scheduleFlags
		deadline time.Time
		policy   fresh.Policy
		err      string
	}{
		{"defaults", scheduleFlags{revalidate: "rolling", within: "7d"}, time.Time{}, fresh.DefaultPolicy(), ""},
		{"a duration", scheduleFlags{deadline: "5h30m", revalidate: "rolling", within: "14d"}, now.Add(5*time.Hour + 30*time.Minute), fresh.Policy{Mode: fresh.Rolling, Window: 14 * 24 * time.Hour}, ""},
		{"days", scheduleFlags{deadline: "1d", revalidate: "never", within: "7d"}, now.Add(24 * time.Hour), fresh.Policy{Mode: fresh.Never, Window: fresh.DefaultWindow}, ""},
		{"a time", scheduleFlags{deadline: "2026-11-25T07:15:00Z", revalidate: "always", within: "7d"}, now.Add(5*time.Hour + 15*time.Minute), fresh.Policy{Mode: fresh.Always, Window: fresh.DefaultWindow}, ""},
		{"a time past", scheduleFlags{deadline: "2026-11-24T07:15:00Z", revalidate: "rolling", within: "7d"}, time.Time{}, fresh.Policy{}, "--deadline 2026-11-24T07:15:00Z has passed"},
		{"not a deadline", scheduleFlags{deadline: "tonight", revalidate: "rolling", within: "7d"}, time.Time{}, fresh.Policy{}, `--deadline: "tonight" is not a duration`},
		{"bad mode", scheduleFlags{revalidate: "often", within: "7d"}, time.Time{}, fresh.Policy{}, `revalidate: "often"`},
		{"negative budget", scheduleFlags{maxRequests: -1, revalidate: "rolling", within: "7d"}, time.Time{}, fresh.Policy{}, "--max-requests -1: want 0 or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c exporter.Config
			err := tc.f.config(&c, now)
			if tc.err != "" {
				var ee *exitError
				if !errors.As(err, &ee) || ee.code != exitUsage || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want a usage error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !c.Deadline.Equal(tc.deadline) || c.Revalidate != tc.policy {
				t.Errorf("deadline %v, policy %+v; want %v, %+v", c.Deadline, c.Revalidate, tc.deadline, tc.policy)
			}
		})
	}
}
