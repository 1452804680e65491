package render

import (
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/curex/curex/exporter/localfile"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/render/i18n"
	"github.com/curex/curex/exporter/setting"
)

// Identity is the publisher's identity on the website: its name, logo,
// colours, footer and the scripts it adds (analytics), with overrides per
// locale. The zero value is curex's own look: the title "Curricula" in
// each page's language, English site-wide pages, no logo, no footer.
// Every field comes from the publisher's configuration, never from the
// API; the website escapes them all the same.
type Identity struct {
	// Title names the site in headers, titles and og:site_name (site_title).
	Title string `json:"title,omitempty"`
	// Language is the language of the catalog and the 404 page
	// (site_language): a locale code with user-interface strings
	// (i18n.Has); "" is English.
	Language string `json:"language,omitempty"`
	// Logo and Favicon are local image files (site_logo, site_favicon),
	// copied into the site's assets under a name with a content hash, so
	// they load from file:// and under the site's Content-Security-Policy.
	Logo    string `json:"logo,omitempty"`
	Favicon string `json:"favicon,omitempty"`
	// Image is the picture of social cards (og:image, site_image): a
	// local file copied like the logo (announced only with a site URL,
	// since og:image needs an absolute address) or an https URL.
	Image string `json:"image,omitempty"`
	// Accent is the colour of links and buttons (site_accent), "#rrggbb"
	// or "#rgb". It must reach WCAG AA (4.5:1) against the light
	// backgrounds of the default theme; dark mode uses the closest
	// lighter tint that reaches it against the dark ones (AccentColors).
	Accent string `json:"accent,omitempty"`
	// Footer is a line of plain text in every page's footer (site_footer).
	Footer string `json:"footer,omitempty"`
	// Links are the footer's links (site_footer_links).
	Links []Link `json:"links,omitempty"`
	// Scripts are https URLs of scripts every website page loads (with
	// defer), such as an analytics service's (site_scripts); their origins
	// join script-src and connect-src of the site's policy (Policy).
	Scripts []string `json:"scripts,omitempty"`
	// Locales override the title, footer and links for pages in a locale,
	// by locale code ("es", "pt-BR"); a page in "es-MX" falls back to "es"
	// (site_locales).
	Locales map[string]LocaleIdentity `json:"locales,omitempty"`
}

// LocaleIdentity is what one locale overrides of an Identity: an empty
// field keeps the site's, and Links, when not nil, replace its links.
type LocaleIdentity struct {
	Title  string `json:"title,omitempty"`
	Footer string `json:"footer,omitempty"`
	Links  []Link `json:"links,omitempty"`
}

// Link is a footer link: a label and an http(s) URL, or a path relative
// to the site's root ("about/", "/legal.html").
type Link struct {
	Label string `json:"label"`
	URL   string `json:"url"`
}

// Limits of the identity's texts, so a mistaken file cannot blow up every
// page.
const (
	maxTitle  = 200
	maxFooter = 1000
	maxLinks  = 20
	maxScript = 10
)

// For returns the identity of the pages in locale code: the site's, with
// the overrides of the code, else of its language ("es" for "es-MX").
func (id Identity) For(code string) LocaleIdentity {
	out := LocaleIdentity{Title: id.Title, Footer: id.Footer, Links: id.Links}
	o, ok := id.locale(code)
	if !ok {
		return out
	}
	if o.Title != "" {
		out.Title = o.Title
	}
	if o.Footer != "" {
		out.Footer = o.Footer
	}
	if o.Links != nil {
		out.Links = o.Links
	}
	return out
}

// locale finds the overrides of code, or of its language.
func (id Identity) locale(code string) (LocaleIdentity, bool) {
	c, lang := model.FoldLocale(code), model.LocaleLanguage(code)
	var byLang LocaleIdentity
	found := false
	for k, v := range id.Locales {
		switch model.FoldLocale(k) {
		case c:
			return v, true
		case lang:
			byLang, found = v, true
		}
	}
	return byLang, found
}

// Files are the local files the identity names (logo, favicon, image):
// what shapes the pages besides the settings themselves.
func (id Identity) Files() []string {
	var out []string
	for _, f := range []string{id.Logo, id.Favicon, id.Image} {
		if f != "" && !isHTTPS(f) {
			out = append(out, f)
		}
	}
	return out
}

// Check checks every field and returns the first problem as a
// *setting.Error naming its setting. It reads no file.
func (id Identity) Check() error {
	if err := checkText(id.Title, maxTitle); err != nil {
		return setting.Errorf(setting.SiteTitle, "%w", err)
	}
	if err := checkText(id.Footer, maxFooter); err != nil {
		return setting.Errorf(setting.SiteFooter, "%w", err)
	}
	if id.Language != "" && (!validLocale(id.Language) || !i18n.Has(id.Language)) {
		return setting.Errorf(setting.SiteLanguage, "%q: want one of %s", id.Language, strings.Join(i18n.Languages(), ", "))
	}
	for _, f := range []struct{ key, v string }{{setting.SiteLogo, id.Logo}, {setting.SiteFavicon, id.Favicon}} {
		if f.v != "" && !imageFile(f.v) {
			return setting.Errorf(f.key, "%q: want a local image file (%s)", f.v, strings.Join(imageExts, ", "))
		}
	}
	if id.Image != "" && !isHTTPS(id.Image) && !imageFile(id.Image) {
		return setting.Errorf(setting.SiteImage, "%q: want a local image file (%s) or an https URL", id.Image, strings.Join(imageExts, ", "))
	}
	if id.Image != "" && isHTTPS(id.Image) {
		if _, err := ScriptOrigin(id.Image); err != nil {
			return setting.Errorf(setting.SiteImage, "%w", err)
		}
	}
	if id.Accent != "" {
		if _, _, err := id.AccentColors(); err != nil {
			return setting.Errorf(setting.SiteAccent, "%w", err)
		}
	}
	if err := checkLinks(id.Links); err != nil {
		return setting.Errorf(setting.SiteFooterLinks, "%w", err)
	}
	if len(id.Scripts) > maxScript {
		return setting.Errorf(setting.SiteScripts, "%d scripts, more than %d", len(id.Scripts), maxScript)
	}
	for _, s := range id.Scripts {
		if _, err := ScriptOrigin(s); err != nil {
			return setting.Errorf(setting.SiteScripts, "%w", err)
		}
	}
	codes := map[string]string{}
	for _, k := range slices.Sorted(mapKeys(id.Locales)) {
		o := id.Locales[k]
		if !validLocale(k) {
			return setting.Errorf(setting.SiteLocales, "%q: not a locale code", k)
		}
		n := model.FoldLocale(k)
		if prev, dup := codes[n]; dup {
			return setting.Errorf(setting.SiteLocales, "%q and %q name the same locale", prev, k)
		}
		codes[n] = k
		if err := checkText(o.Title, maxTitle); err != nil {
			return setting.Errorf(setting.SiteLocales, "%s: title: %w", k, err)
		}
		if err := checkText(o.Footer, maxFooter); err != nil {
			return setting.Errorf(setting.SiteLocales, "%s: footer: %w", k, err)
		}
		if err := checkLinks(o.Links); err != nil {
			return setting.Errorf(setting.SiteLocales, "%s: links: %w", k, err)
		}
	}
	return nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkText refuses control characters and texts longer than max runes.
func checkText(s string, max int) error {
	if n := len([]rune(s)); n > max {
		return fmt.Errorf("%d characters, more than %d", n, max)
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return fmt.Errorf("%q: control or invalid characters", s)
		}
	}
	return nil
}

// validLocale accepts locale codes: letters, digits, "-" and "_", starting
// with a letter, at most 35 characters (BCP 47's longest common form).
func validLocale(s string) bool {
	if s == "" || len(s) > 35 {
		return false
	}
	for i, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '_')
		if !ok {
			return false
		}
	}
	return true
}

// imageExts are the file types a logo, favicon or card image may have:
// the gate of local files's (localfile.ImageExts), which checks them.
var imageExts = localfile.ImageExts()

func imageFile(p string) bool {
	return !strings.Contains(p, "://") && slices.Contains(imageExts, strings.ToLower(filepath.Ext(p)))
}

func isHTTPS(s string) bool { return strings.HasPrefix(strings.ToLower(s), "https://") }

// checkLinks checks footer links: a label, and an http(s) URL or a path
// relative to the site's root; no other scheme (javascript:, data:).
func checkLinks(links []Link) error {
	if len(links) > maxLinks {
		return fmt.Errorf("%d links, more than %d", len(links), maxLinks)
	}
	for _, l := range links {
		if strings.TrimSpace(l.Label) == "" {
			return fmt.Errorf("link %q: no label", l.URL)
		}
		if err := checkText(l.Label, maxTitle); err != nil {
			return fmt.Errorf("link label: %w", err)
		}
		if err := CheckLinkURL(l.URL); err != nil {
			return fmt.Errorf("link %q: %w", l.Label, err)
		}
	}
	return nil
}

// CheckLinkURL accepts an absolute http(s) URL with a host, or a path
// relative to the site's root with no scheme ("about/", "/legal.html").
func CheckLinkURL(s string) error {
	if s == "" || strings.ContainsAny(s, "\\ \t\r\n") || strings.HasPrefix(s, "//") {
		return fmt.Errorf("%q: want an http(s) URL or a path", s)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return fmt.Errorf("%q: control characters", s)
		}
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%q: %w", s, err)
	}
	switch {
	case u.Scheme == "" && u.Host == "" && u.User == nil:
		return nil
	case (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil:
		return nil
	}
	return fmt.Errorf("%q: want an http(s) URL or a path, no other scheme", s)
}

// ScriptOrigin returns the origin ("https://stats.example.org") of a
// script URL, which must be https with a host and no user name or
// password: a page's scripts run with the page's rights, so no javascript:,
// data: or plain http.
func ScriptOrigin(s string) (string, error) {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.IsSpace(r) || r == '\'' || r == '"' || r == ';' || r == ',' {
			return "", fmt.Errorf("%q: spaces, quotes, commas, semicolons or control characters", s)
		}
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("%q: %w", s, err)
	}
	if u.Scheme != "https" || u.Host == "" || u.User != nil || u.Opaque != "" {
		return "", fmt.Errorf("%q: want an https URL with a host (no javascript:, data: or http:)", s)
	}
	host := strings.ToLower(u.Host)
	if !hostChars(host) {
		return "", fmt.Errorf("%q: want a host of letters, digits, dots and hyphens (no wildcard)", s)
	}
	return "https://" + host, nil
}

// hostChars accepts a host name or address with an optional port:
// a-z, 0-9, ".", "-", and ":" or "[]" for a port and IPv6. A "*" would
// be a wildcard in a Content-Security-Policy.
func hostChars(h string) bool {
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune(".-:[]", r)) {
			return false
		}
	}
	return !strings.HasPrefix(h, ":") && !strings.HasPrefix(h, ".")
}

// Origins are the distinct origins of the identity's scripts, in order.
func (id Identity) Origins() []string {
	var out []string
	for _, s := range id.Scripts {
		if o, err := ScriptOrigin(s); err == nil && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// Backgrounds of the default theme (themes/default/site.css): --bg,
// --bg-soft and --accent-soft (the sidebar's current page) in light and
// in dark mode. Links and buttons in the accent colour sit on them.
var (
	lightBackgrounds = []string{"#ffffff", "#f4f6f8", "#e3eefa"}
	darkBackgrounds  = []string{"#0f1419", "#1a2129", "#1c2d40"}
)

// MinContrast is WCAG 2's level AA for normal text (1.4.3).
const MinContrast = 4.5

// AccentColors returns the accent for light mode (Accent, as #rrggbb) and
// for dark mode: Accent blended toward white, by the least step of 5%
// that reaches MinContrast against the dark backgrounds. An accent that
// does not reach it against the light backgrounds is refused, with its
// contrast.
func (id Identity) AccentColors() (light, dark string, err error) {
	c, err := ParseColor(id.Accent)
	if err != nil {
		return "", "", err
	}
	for _, b := range lightBackgrounds {
		bg, _ := ParseColor(b)
		if r := Contrast(c, bg); r < MinContrast {
			return "", "", fmt.Errorf("%s has a contrast of %.2f:1 on %s, below WCAG AA's %.1f:1 for links and buttons: choose a darker colour", id.Accent, r, b, MinContrast)
		}
	}
	for step := 0; step <= 20; step++ {
		d := c.mix(Color{255, 255, 255}, float64(step)/20)
		ok := true
		for _, b := range darkBackgrounds {
			bg, _ := ParseColor(b)
			if Contrast(d, bg) < MinContrast {
				ok = false
			}
		}
		if ok {
			return c.String(), d.String(), nil
		}
	}
	return c.String(), "#ffffff", nil // unreachable: white has 17:1 on the dark backgrounds
}

// Color is an sRGB colour.
type Color struct{ R, G, B uint8 }

// ParseColor reads "#rrggbb" or "#rgb" (any case).
func ParseColor(s string) (Color, error) {
	h, ok := strings.CutPrefix(s, "#")
	if !ok || (len(h) != 3 && len(h) != 6) {
		return Color{}, fmt.Errorf("%q: want a colour as #rrggbb or #rgb", s)
	}
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return Color{}, fmt.Errorf("%q: want a colour as #rrggbb or #rgb", s)
	}
	return Color{uint8(v >> 16), uint8(v >> 8), uint8(v)}, nil
}

// String spells c as #rrggbb.
func (c Color) String() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// mix blends c toward o by t (0: c, 1: o).
func (c Color) mix(o Color, t float64) Color {
	f := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*t)) }
	return Color{f(c.R, o.R), f(c.G, o.G), f(c.B, o.B)}
}

// luminance is WCAG 2's relative luminance.
func (c Color) luminance() float64 {
	ch := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
}

// Contrast is WCAG 2's contrast ratio of two colours, from 1 to 21.
func Contrast(a, b Color) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}
