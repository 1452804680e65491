package cli

import (
	"encoding/json"
	"time"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fresh"
)

// planVersion is the version of the plan --json shape; it changes only
// when a field changes meaning or goes away (docs/automation.md).
const planVersion = 1

// planJSON is what plan --json prints (docs/automation.md).
type planJSON struct {
	Version   int              `json:"version"`
	User      planUser         `json:"user"`
	Curricula []planCurriculum `json:"curricula"`
	// Trees counts the planned exports (variant × locale).
	Trees    int             `json:"trees"`
	Schedule scheduleCounts  `json:"schedule"`
	Requests planRequests    `json:"requests"`
	Skipped  []skippedExport `json:"skipped"`
	Invalid  []planInvalid   `json:"invalid"`
	Warnings []string        `json:"warnings"`
}

type planUser struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Organization string `json:"organization"`
}

type planCurriculum struct {
	ID            string       `json:"id"`
	Name          string       `json:"name"`
	Slug          string       `json:"slug"`
	PrimaryLocale string       `json:"primary_locale"`
	Variants      []string     `json:"variants"`
	Locales       []planLocale `json:"locales"`
	Exports       []planExport `json:"exports"`
}

type planLocale struct {
	Code              string `json:"code"`
	PublishedProgress int    `json:"published_progress"`
}

type planExport struct {
	// Export is the export's folder under the output, curriculum/variant/locale.
	Export string `json:"export"`
	// Variant is "" for the base curriculum.
	Variant string `json:"variant"`
	Locale  string `json:"locale"`
	// Fetch is why the next run requests the tree (new, changed, due), or
	// unchanged when it is served from the cache.
	Fetch string `json:"fetch"`
}

type planRequests struct {
	// Discovery counts the requests discovery made; NextRun those the
	// next run's trees need after it.
	Discovery  int     `json:"discovery"`
	NextRun    int     `json:"next_run"`
	ETASeconds float64 `json:"eta_seconds"`
	Limits     string  `json:"limits"`
}

type planInvalid struct {
	Export string `json:"export"`
	Error  string `json:"error"`
}

// printPlanJSON writes the plan of r as one JSON document on standard
// output.
func printPlanJSON(g *globals, r *exporter.PlanReport) error {
	p, sc := r.Plan, r.Schedule
	why := map[string]string{}
	for _, list := range [][]fresh.Item{sc.Fetch, sc.Skip} {
		for _, it := range list {
			why[it.Export.Dir()] = it.Reason.String()
		}
	}
	out := planJSON{Version: planVersion, Curricula: []planCurriculum{}, Skipped: []skippedExport{}, Invalid: []planInvalid{}, Warnings: []string{}}
	if u := p.User; u != nil {
		out.User = planUser{ID: u.ID, Name: u.Name, Organization: u.OrganizationName}
	}
	for _, cp := range p.Curricula {
		c := planCurriculum{ID: cp.Curriculum.ID, Name: cp.Curriculum.Name, Slug: cp.Slug, PrimaryLocale: cp.PrimaryLocale,
			Variants: variantNames(cp), Locales: []planLocale{}, Exports: []planExport{}}
		for _, l := range cp.Locales {
			c.Locales = append(c.Locales, planLocale{Code: l.Code, PublishedProgress: l.PublishedProgress})
		}
		for _, e := range cp.Exports {
			c.Exports = append(c.Exports, planExport{Export: e.Dir(), Variant: e.Variant, Locale: e.Locale, Fetch: why[e.Dir()]})
		}
		out.Trees += len(cp.Exports)
		out.Curricula = append(out.Curricula, c)
	}
	out.Schedule = scheduleCounts{Policy: sc.Policy.Mode.String(), New: sc.Count(fresh.New), Changed: sc.Count(fresh.Changed),
		Revalidated: sc.Count(fresh.Due), Unchanged: sc.Count(fresh.Unchanged)}
	out.Requests = planRequests{Discovery: p.DiscoveryRequests, NextRun: len(sc.Fetch),
		ETASeconds: r.Limiter.ETA(len(sc.Fetch)).Round(time.Second).Seconds(), Limits: r.Limiter.Limits().String()}
	for _, sk := range p.Skipped {
		out.Skipped = append(out.Skipped, skippedExport{Export: sk.Export.Dir(), Setting: sk.Setting, Reason: g.describeSkip(sk.Reason, sk.Setting)})
	}
	for _, iv := range p.Invalid {
		out.Invalid = append(out.Invalid, planInvalid{Export: iv.Export.Dir(), Error: iv.Err.Error()})
	}
	out.Warnings = append(out.Warnings, p.Warnings...)
	enc := json.NewEncoder(g.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
