package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/pacer"
)

func newPlanCommand(g *globals) *cobra.Command {
	f := &exportFlags{}
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "Show the variant × locale matrix, the requests an export needs and its ETA",
		Long: `plan discovers what export would: the curricula the token can see and, for
each, the variant × locale matrix after --curriculum, --variants, --locales
and --min-translation. It then says which trees the next run fetches (new,
changed, due for revalidation) and which come from the cache, what that
costs in requests and time under the rate limits, and when every tree is
current. It writes nothing but the ETag cache of discovery. With --json the
plan is one JSON document on standard output, for scripts and CI
(docs/automation.md).`,
		Example: `  curex plan --base-url https://api.example.org
  curex plan --base-url https://api.example.org --json | jq '.requests.next_run'
  curex plan --base-url https://api.example.org --variants base --locales en,es --max-requests 500`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := g.logger()
			if err != nil {
				return err
			}
			c := exporter.Config{Log: log}
			if err := f.api.config(g, &c); err != nil {
				return err
			}
			if c.Filter, err = f.sel.filter(); err != nil {
				return err
			}
			if err := checkConcurrency(f.sel.concurrency); err != nil {
				return err
			}
			if err := f.sched.config(&c, time.Now()); err != nil {
				return err
			}
			return runPlan(cmd.Context(), g, c, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the plan as one JSON document (docs/automation.md)")
	f.api.register(cmd)
	f.sel.register(cmd)
	f.sched.register(cmd)
	registerConfig(cmd)
	return cmd
}

func runPlan(ctx context.Context, g *globals, c exporter.Config, asJSON bool) error {
	r, err := exporter.Plan(ctx, c)
	if err != nil {
		return runError(err)
	}
	if asJSON {
		return printPlanJSON(g, r)
	}
	p := r.Plan
	w := tabwriter.NewWriter(g.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(w, "token of %s (%s)\n\n", api.Printable(p.User.Name), api.Printable(p.User.OrganizationName))
	trees := 0
	for _, cp := range p.Curricula {
		fmt.Fprintf(w, "%s  %s  (%d variants, primary locale %s)\n", api.Printable(cp.Curriculum.ID), api.Printable(cp.Curriculum.Name), len(cp.Variants), api.Printable(cp.PrimaryLocale))
		fmt.Fprint(w, "  variant \\ locale")
		for _, l := range cp.Locales {
			fmt.Fprintf(w, "\t%s %d%%", api.Printable(l.Code), l.PublishedProgress)
		}
		fmt.Fprintln(w)
		rows := append([]string{""}, variantNames(cp)...)
		for _, v := range rows {
			label := api.Printable(v)
			if label == "" {
				label = "(base)"
			}
			fmt.Fprintf(w, "  %s", label)
			for _, l := range cp.Locales {
				mark := "-"
				for _, e := range cp.Exports {
					if e.Variant == v && e.Locale == l.Code {
						mark = "x"
					}
				}
				fmt.Fprintf(w, "\t%s", mark)
			}
			fmt.Fprintln(w)
		}
		trees += len(cp.Exports)
		fmt.Fprintln(w)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	printSchedule(g, c, r, trees)
	for _, sk := range p.Skipped {
		fmt.Fprintf(g.stdout, "skipped %s: %s\n", sk.Export.Dir(), api.Printable(g.describeSkip(sk.Reason, sk.Setting)))
	}
	for _, msg := range p.Warnings {
		fmt.Fprintf(g.stdout, "left out: %s\n", msg)
	}
	for _, iv := range p.Invalid {
		fmt.Fprintf(g.stdout, "will fail %s: %v\n", iv.Export.Dir(), iv.Err)
	}
	return nil
}

func variantNames(cp fetch.CurriculumPlan) []string {
	out := make([]string, len(cp.Variants))
	for i, v := range cp.Variants {
		out[i] = v.Name
	}
	return out
}

// printSchedule tells what the next run fetches and why, what it costs,
// and when the whole organization will be fresh.
func printSchedule(g *globals, c exporter.Config, r *exporter.PlanReport, trees int) {
	sc, limiter := r.Schedule, r.Limiter
	fetches := len(sc.Fetch)
	fmt.Fprintf(g.stdout, "%d trees: %d new, %d changed, %d due for revalidation (%s), %d unchanged (no request)\n",
		trees, sc.Count(fresh.New), sc.Count(fresh.Changed), sc.Count(fresh.Due), revalidation(sc.Policy), sc.Count(fresh.Unchanged))
	eta := limiter.ETA(fetches)
	hourly := hourlyLimit(limiter)
	budget := ""
	if hourly > 0 {
		budget = fmt.Sprintf(", %.1f hours of budget", float64(fetches+r.Plan.DiscoveryRequests)/float64(hourly))
	}
	fmt.Fprintf(g.stdout, "next run: %d requests after the %d of discovery%s; about %s under %s\n",
		fetches, r.Plan.DiscoveryRequests, budget, eta.Round(time.Second), limiter.Limits())
	// What one run can afford.
	perRun := -1 // no bound
	if c.MaxRequests > 0 {
		perRun = max(0, int(c.MaxRequests)-r.Plan.DiscoveryRequests)
	}
	if !c.Deadline.IsZero() {
		n := affordable(limiter, time.Until(c.Deadline), fetches)
		if perRun < 0 || n < perRun {
			perRun = n
		}
	}
	stale := sc.Count(fresh.New) + sc.Count(fresh.Changed)
	switch {
	case perRun < 0 || perRun >= fetches:
		fmt.Fprintf(g.stdout, "fresh: every tree is current after the next run (about %s)\n", eta.Round(time.Second))
	case perRun == 0:
		fmt.Fprintln(g.stdout, "fresh: never; the budget (--max-requests, --deadline) leaves no request after discovery")
	default:
		runs := (stale + perRun - 1) / perRun
		fmt.Fprintf(g.stdout, "fresh: the next run fetches %d of %d; new and changed trees are all current after %d run(s), the rest are revalidated in turn\n", perRun, fetches, max(1, runs))
		if share := sc.Count(fresh.Due); perRun < share && stale == 0 {
			fmt.Fprintf(g.stdout, "warning: a run affords %d requests, less than the %d due for revalidation: raise --max-requests or --deadline, or widen --revalidate-within\n", perRun, share)
		}
	}
}

// hourlyLimit returns the count of the limiter's one-hour limit (0: none).
func hourlyLimit(l *pacer.Limiter) int {
	for _, lim := range l.Limits() {
		if lim.Window == time.Hour {
			return lim.Count
		}
	}
	return 0
}

// affordable returns how many of n requests the limiter lets leave within d.
func affordable(l *pacer.Limiter, d time.Duration, n int) int {
	lo, hi := 0, n
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if l.ETA(mid) <= d {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
