package html

import (
	"bytes"
	"encoding/xml"

	"github.com/curex/curex/exporter/internal/layout"
)

// sitemap lists every page of the site with absolute URLs, each contents
// and node page with its hreflang alternates (the same page in every other
// exported locale of its variant, and x-default for the primary locale).
func (r *Renderer) sitemap(site *SiteInfo) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
	esc := func(s string) { _ = xml.EscapeText(&b, []byte(s)) }
	url := func(path string, alts []Alternate) {
		b.WriteString("  <url>\n    <loc>")
		esc(absURL(site.URL, path))
		b.WriteString("</loc>\n")
		if len(alts) > 1 {
			for _, a := range alts {
				b.WriteString(`    <xhtml:link rel="alternate" hreflang="`)
				esc(a.Lang)
				b.WriteString(`" href="`)
				esc(a.Href)
				b.WriteString("\"/>\n")
			}
		}
		b.WriteString("  </url>\n")
	}
	url(layout.Home, nil)
	for _, c := range site.Curricula {
		url(layout.CurriculumIndex(c.Slug), nil)
		for _, v := range c.Variants {
			// alternates of node id ("" for the contents page)
			alternates := func(id string) []Alternate {
				var out []Alternate
				var xdefault *Alternate
				for _, l := range c.Locales {
					rec := r.trees[c.Slug+"/"+v.Slug+"/"+l.Slug]
					if rec == nil {
						continue
					}
					p := layout.ExportIndex(rec.outline.Export)
					if id != "" {
						var ok bool
						if p, ok = rec.outline.Path[id]; !ok {
							continue
						}
					}
					a := Alternate{Lang: l.Code, Href: absURL(site.URL, p)}
					out = append(out, a)
					if l.Code == c.PrimaryLocale {
						xdefault = &Alternate{Lang: "x-default", Href: a.Href}
					}
				}
				if xdefault != nil {
					out = append(out, *xdefault)
				}
				return out
			}
			for _, l := range c.Locales {
				rec := r.trees[c.Slug+"/"+v.Slug+"/"+l.Slug]
				if rec == nil {
					continue
				}
				url(layout.ExportIndex(rec.outline.Export), alternates(""))
				for _, id := range rec.ids {
					url(rec.outline.Path[id], alternates(id))
				}
			}
		}
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}
