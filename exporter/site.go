package exporter

import (
	"log/slog"
	"slices"

	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/render/html"
)

// siteOptions are the settings of the website.
type siteOptions struct {
	// formats are the formats selected: the pages link to the others.
	formats            []string
	siteURL, generator string
	themeDir           string
	includeUnpublished bool
	log                *slog.Logger
}

// siteOptions are c's settings of the website; nil without it.
func (c *Config) siteOptions() *siteOptions {
	if !c.has("html") {
		return nil
	}
	return &siteOptions{formats: c.Formats, siteURL: c.SiteURL, generator: c.Generator, themeDir: c.ThemeDir,
		includeUnpublished: c.Filter.IncludeUnpublished, log: c.Log}
}

func (o *siteOptions) has(format string) bool { return slices.Contains(o.formats, format) }

// buildSite describes the whole site from the plan: curricula, their
// variants and locales, and which pairs have pages (written now, or kept
// from the previous run).
func buildSite(o *siteOptions, plan *fetch.Plan, exported map[model.Key]bool) *html.Site {
	site := &html.Site{
		URL: o.siteURL, Generator: o.generator,
		JSONBundles: o.has("json"), MarkdownBundles: o.has("markdown"),
		Handbooks: o.has("handbook"), PDFs: o.has("pdf"),
	}
	for _, cp := range plan.Curricula {
		// Names are shown as one-line texts (fetch.PlainText: no control
		// characters, no bidi control left open); manifest.json keeps them
		// exactly as the API gives them.
		hc := &html.Curriculum{
			ID: cp.Curriculum.ID, Name: fetch.PlainText(cp.Curriculum.Name), Description: cp.Curriculum.Description,
			Slug: cp.Slug, PrimaryLocale: cp.PrimaryLocale, Exported: map[string]bool{},
		}
		for _, l := range cp.Locales {
			hc.Locales = append(hc.Locales, html.Locale{
				Code: l.Code, Name: fetch.PlainText(l.Name), Slug: fetch.LocaleSlug(l.Code),
				IsPrimary: l.IsPrimary || l.Code == cp.PrimaryLocale, RTL: html.RTL(l.Code),
				TranslationProgress: l.TranslationProgress, PublishedProgress: l.PublishedProgress,
			})
		}
		slugs := map[string]string{cp.Curriculum.ID: fetch.BaseSlug}
		hc.Variants = append(hc.Variants, html.Variant{ID: cp.Curriculum.ID, Slug: fetch.BaseSlug})
		for _, e := range cp.Exports {
			if e.Variant != "" {
				slugs[e.VariantID] = e.VariantSlug
			}
		}
		for _, v := range cp.Variants {
			s, ok := slugs[v.ID]
			if !ok {
				continue // not exported: no pages to switch to
			}
			hc.Variants = append(hc.Variants, html.Variant{
				Name: fetch.PlainText(v.Name), ID: v.ID, Slug: s, ParentSlug: slugs[v.ParentID], Depth: v.Depth,
			})
		}
		for _, e := range cp.Exports {
			if exported[e.Key()] {
				hc.Exported[e.VariantSlug+"/"+e.LocaleSlug] = true
			}
		}
		site.Curricula = append(site.Curricula, hc)
	}
	return site
}

// outlines holds the outline of every tree rendered in a run.
type outlines map[string]*html.Outline

// Outline implements html.Outlines.
func (o outlines) Outline(c, v, l string) *html.Outline { return o[c+"/"+v+"/"+l] }
