package html

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/curex/curex/exporter/layout"
	"github.com/curex/curex/exporter/localfile"
	"github.com/curex/curex/exporter/render"
	"github.com/curex/curex/exporter/setting"
)

// identityAssets are the files the publisher's identity adds under
// assets/, each named with a content hash: the logo, the favicon, the
// social card's image and the style sheet of the accent colour.
type identityAssets struct {
	logo, favicon, image, css *asset
}

// all lists the files to write.
func (a *identityAssets) all() []*asset {
	var out []*asset
	for _, x := range []*asset{a.logo, a.favicon, a.image, a.css} {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

// loadIdentity reads the identity's local files through the gate of
// local files (localfile.ReadFile, as images: their paths are the
// operator's, as the command line resolved them) and writes the accent's
// style sheet. An error names the setting.
func loadIdentity(ctx context.Context, id render.Identity) (*identityAssets, error) {
	var out identityAssets
	for _, f := range []struct {
		key, path, name string
		to              **asset
	}{
		{setting.SiteLogo, id.Logo, "logo", &out.logo},
		{setting.SiteFavicon, id.Favicon, "favicon", &out.favicon},
		{setting.SiteImage, id.Image, "social", &out.image},
	} {
		if f.path == "" || f.key == setting.SiteImage && strings.HasPrefix(strings.ToLower(f.path), "https://") {
			continue
		}
		data, err := localfile.ReadFile(ctx, localfile.OperatorRef(f.path), localfile.Image)
		if err != nil {
			return nil, setting.Errorf(f.key, "%w", err)
		}
		name := f.name + strings.ToLower(filepath.Ext(f.path))
		*f.to = &asset{Name: hashed(name, data), Data: data}
	}
	if id.Accent != "" {
		light, dark, err := id.AccentColors()
		if err != nil {
			return nil, setting.Errorf(setting.SiteAccent, "%w", err)
		}
		css := []byte(accentCSS(light, dark))
		out.css = &asset{Name: hashed("identity.css", css), Data: css}
	}
	return &out, nil
}

// accentCSS sets the theme's --accent in light mode, in dark mode (the
// system's or the reader's choice, as site.css spells them) and in print.
// It loads after site.css, so its rules win at equal specificity.
func accentCSS(light, dark string) string {
	return fmt.Sprintf(`/* The publisher's accent colour (site_accent), written by curex. */
:root { --accent: %[1]s; }
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) { --accent: %[2]s; }
}
:root[data-theme="dark"] { --accent: %[2]s; }
@media print {
  :root { --accent: #000; }
}
`, light, dark)
}

// Brand is the publisher's identity as one page shows it (Page.Brand):
// what the theme's header, footer and head print.
type Brand struct {
	// Logo and Favicon link the publisher's images ("" for none); the
	// logo sits beside the site title, so it is decorative (alt="").
	Logo, Favicon string
	// Style links the accent colour's style sheet ("" for none).
	Style string
	// Footer is the footer's line of text; Links its links, each Href
	// relative to the page (a path relative to the site's root) or an
	// http(s) URL.
	Footer string
	Links  []Link
	// Scripts are the publisher's scripts (https URLs).
	Scripts []string
}

// Social is a page's OpenGraph and Twitter card (Page.Social).
type Social struct {
	// Title, Description and SiteName are og:title, og:description and
	// og:site_name.
	Title, Description, SiteName string
	// Type is og:type: "article" for node pages, else "website".
	Type string
	// Locale is og:locale ("es_MX"); Alternates are the page's other
	// locales (og:locale:alternate).
	Locale     string
	Alternates []string
	// URL is og:url, the page's canonical address (with a site URL only).
	URL string
	// Image is og:image, an absolute URL ("" for none); Card is
	// twitter:card: summary_large_image with an image, else summary.
	Image, Card string
}

// ogLocale spells a locale code as OpenGraph does: "es-MX" → "es_MX".
func ogLocale(code string) string { return strings.ReplaceAll(code, "-", "_") }

// decorate fills the page's Brand and Social from the site's identity,
// once its kind, path, language, title and switchers are set.
func (r *Renderer) decorate(p *Page) {
	site := p.Site
	if site == nil {
		return
	}
	id := site.Identity.For(p.Lang)
	b := &Brand{Footer: id.Footer, Scripts: site.Identity.Scripts}
	if a := r.identity; a != nil {
		if a.logo != nil {
			b.Logo = p.Href(layout.Asset(a.logo.Name))
		}
		if a.favicon != nil {
			b.Favicon = p.Href(layout.Asset(a.favicon.Name))
		}
		if a.css != nil {
			b.Style = p.Href(layout.Asset(a.css.Name))
		}
	}
	for _, l := range id.Links {
		b.Links = append(b.Links, Link{Title: l.Label, Href: footerHref(p, l.URL)})
	}
	p.Brand = b

	s := &Social{Title: p.Title, Description: p.Description, SiteName: p.Header.SiteTitle, Type: "website",
		Locale: ogLocale(p.Lang), URL: p.Canonical, Card: "summary"}
	if p.Kind == "node" {
		s.Type = "article"
	}
	for _, l := range p.Languages {
		if !l.Current && l.Lang != "" {
			s.Alternates = append(s.Alternates, ogLocale(l.Lang))
		}
	}
	switch img := site.Identity.Image; {
	case strings.HasPrefix(strings.ToLower(img), "https://"):
		s.Image = img
	case r.identity != nil && r.identity.image != nil && site.URL != "":
		s.Image = absURL(site.URL, layout.Asset(r.identity.image.Name))
	}
	if s.Image != "" {
		s.Card = "summary_large_image"
	}
	p.Social = s
}

// footerHref is the link of a footer URL from page p: an absolute URL or
// a root-absolute path as given, a path relative to the site's root made
// relative to the page.
func footerHref(p *Page, u string) string {
	if strings.Contains(u, "://") || strings.HasPrefix(u, "/") {
		return u
	}
	i := strings.IndexAny(u, "?#")
	if i < 0 {
		i = len(u)
	}
	if i == 0 {
		return u
	}
	return p.Href(u[:i]) + u[i:]
}
