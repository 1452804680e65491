package main

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/fetch"
)

func newPlanCommand(g *globals) *cobra.Command {
	f := &exportFlags{}
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "Show the variant × locale matrix, the requests an export needs and its ETA",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := g.logger()
			if err != nil {
				return err
			}
			c := exporter.Config{Log: log}
			if err := f.api.config(&c); err != nil {
				return err
			}
			if c.Filter, err = f.sel.filter(); err != nil {
				return err
			}
			return runPlan(cmd.Context(), g, c)
		},
	}
	f.api.register(cmd)
	f.sel.register(cmd)
	registerConfig(cmd)
	return cmd
}

func runPlan(ctx context.Context, g *globals, c exporter.Config) error {
	p, limiter, err := exporter.Plan(ctx, c)
	if err != nil {
		var ce *exporter.ConfigError
		if errors.As(err, &ce) {
			return usageErr(err)
		}
		return err
	}
	w := tabwriter.NewWriter(g.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(w, "token of %s (%s)\n\n", p.User.Name, p.User.OrganizationName)
	trees := 0
	for _, cp := range p.Curricula {
		fmt.Fprintf(w, "%s  %s  (%d variants, primary locale %s)\n", cp.Curriculum.ID, cp.Curriculum.Name, len(cp.Variants), cp.PrimaryLocale)
		fmt.Fprint(w, "  variant \\ locale")
		for _, l := range cp.Locales {
			fmt.Fprintf(w, "\t%s %d%%", l.Code, l.PublishedProgress)
		}
		fmt.Fprintln(w)
		rows := append([]string{""}, variantNames(cp)...)
		for _, v := range rows {
			label := v
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
	fmt.Fprintf(g.stdout, "%d trees to export: %d requests after the %d of discovery; about %s under %s\n",
		trees, trees, p.DiscoveryRequests, limiter.ETA(trees).Round(1e9), limiter.Limits())
	for _, sk := range p.Skipped {
		fmt.Fprintf(g.stdout, "skipped %s: %s\n", sk.Export.Dir(), sk.Reason)
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
