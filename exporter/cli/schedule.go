package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fresh"
)

// scheduleFlags bound a run and say how it revalidates unchanged trees;
// export and plan share them (plan shows what the next run would do).
type scheduleFlags struct {
	maxRequests int64
	deadline    string
	revalidate  string
	within      string
}

func (f *scheduleFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.Int64Var(&f.maxRequests, "max-requests", 0, "stop sending requests after this many (0: no limit); the next run carries on")
	fl.StringVar(&f.deadline, "deadline", "", "stop sending requests after this long (5h, 1d) or at this time (RFC 3339); the next run carries on")
	fl.StringVar(&f.revalidate, "revalidate", "rolling", "revalidation of trees whose signals did not change: rolling, always or never")
	fl.StringVar(&f.within, "revalidate-within", "7d", "with --revalidate rolling: revalidate every tree at least this often")
}

// config fills the run's budget and revalidation policy; now is the run's
// start, from which a --deadline duration counts.
func (f *scheduleFlags) config(c *exporter.Config, now time.Time) error {
	if f.maxRequests < 0 {
		return usageErr(fmt.Errorf("--max-requests %d: want 0 or more", f.maxRequests))
	}
	c.MaxRequests = f.maxRequests
	if f.deadline != "" {
		d, err := parseDeadline(f.deadline, now)
		if err != nil {
			return usageErr(err)
		}
		c.Deadline = d
	}
	p, err := fresh.ParsePolicy(f.revalidate, f.within)
	if err != nil {
		return usageErr(err)
	}
	c.Revalidate = p
	return nil
}

// parseDeadline reads --deadline: a duration from now, or a time.
func parseDeadline(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		if !t.After(now) {
			return time.Time{}, fmt.Errorf("--deadline %s has passed", s)
		}
		return t, nil
	}
	d, err := fresh.ParseDays(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--deadline: %w; or give a time such as 2026-11-25T05:30:00Z", err)
	}
	return now.Add(d), nil
}
