package html

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/curex/curex/exporter/internal/golden"

	"github.com/curex/curex/exporter/internal/localfile"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/setting"
)

// hostileTitle is a publisher's title that would break out of an
// attribute or the title element if it were not escaped.
const hostileTitle = `Riverbend "Schools" <script>alert(1)</script> & Co`

// identityFixture renders the sample with a full identity: local logo,
// favicon and card image, accent, footer, links, a script and Spanish
// overrides.
func identityFixture(t *testing.T, siteURL string) (*fixture, *memWriter, render.Identity) {
	t.Helper()
	dir := t.TempDir()
	file := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	id := render.Identity{
		Title: hostileTitle, Language: "fr",
		Logo: file("Logo.SVG", `<svg xmlns="http://www.w3.org/2000/svg"/>`), Favicon: file("icon.png", tinyImage(t, png.Encode)),
		Image: file("card.jpg", tinyImage(t, func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, nil) })), Accent: "#1D4E89", Footer: "© Riverbend <b>",
		Links:   []render.Link{{Label: "About <us>", URL: "about/?x=1#team"}, {Label: "Legal", URL: "https://example.org/legal?a=1&b=2"}, {Label: "Root", URL: "/privacy.html"}},
		Scripts: []string{"https://stats.example.org/js/script.js?id=a&b=c"},
		Locales: map[string]render.LocaleIdentity{"es": {Title: "Currículos", Footer: "Pie", Links: []render.Link{}}},
	}
	if err := id.Check(); err != nil {
		t.Fatal(err)
	}
	f := sample(t, false)
	f.site.URL, f.site.Identity, f.site.Title, f.site.Lang = siteURL, id, id.Title, id.Language
	return f, f.render(t, Options{Identity: id, NoSitemap: siteURL == ""}), id
}

// tinyImage is a 1x1 image encoded by enc: the gate of local files
// checks that an image file holds an image of its type.
func tinyImage(t *testing.T, enc func(io.Writer, image.Image) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := enc(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// metas returns the content of every <meta property|name=key> of a page.
func metas(t *testing.T, page []byte) map[string][]string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(string(page)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "meta" {
			var key, content string
			for _, a := range n.Attr {
				switch a.Key {
				case "property", "name":
					key = a.Val
				case "content":
					content = a.Val
				}
			}
			if key != "" {
				out[key] = append(out[key], content)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

func TestIdentityAssets(t *testing.T) {
	t.Parallel()
	_, w, _ := identityFixture(t, "")
	want := map[string]*regexp.Regexp{
		"logo":     regexp.MustCompile(`^assets/logo\.[0-9a-f]{8}\.svg$`),
		"favicon":  regexp.MustCompile(`^assets/favicon\.[0-9a-f]{8}\.png$`),
		"social":   regexp.MustCompile(`^assets/social\.[0-9a-f]{8}\.jpg$`),
		"identity": regexp.MustCompile(`^assets/identity\.[0-9a-f]{8}\.css$`),
	}
	for name, re := range want {
		found := ""
		for _, n := range w.names() {
			if re.MatchString(n) {
				found = n
			}
		}
		if found == "" {
			t.Errorf("no %s asset", name)
			continue
		}
		if hashed(name+path.Ext(found), w.files[found]) != path.Base(found) {
			t.Errorf("%s: the hash does not match the content", found)
		}
	}
	var css string
	for _, n := range w.names() {
		if want["identity"].MatchString(n) {
			css = string(w.files[n])
		}
	}
	// The light accent as given (lower case), a lighter tint in dark mode
	// for both ways dark mode is chosen, black in print.
	for _, s := range []string{":root { --accent: #1d4e89; }", `:root:not([data-theme="light"]) { --accent: #`, `:root[data-theme="dark"] { --accent: #`, "@media print {\n  :root { --accent: #000; }"} {
		if !strings.Contains(css, s) {
			t.Errorf("identity.css lacks %q:\n%s", s, css)
		}
	}
	if strings.Contains(css, "--accent: #1d4e89; }\n}") {
		t.Error("dark mode keeps the light accent, which is below AA on the dark background")
	}
}

// TestIdentityOnEveryPage: each page carries the site's (or its locale's)
// title, escaped, the OpenGraph and Twitter tags, the logo, favicon,
// style sheet, footer and script, with links relative to the page.
func TestIdentityOnEveryPage(t *testing.T) {
	t.Parallel()
	_, w, _ := identityFixture(t, "https://curricula.example.org/")
	pages := 0
	for _, name := range w.names() {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		pages++
		page := w.files[name]
		s := string(page)
		if strings.Contains(s, "<script>alert(1)") || strings.Contains(s, "<b>") || strings.Contains(s, "About <us>") {
			t.Fatalf("%s: the publisher's texts are not escaped", name)
		}
		m := metas(t, page)
		lang := regexp.MustCompile(`<html lang="([^"]+)"`).FindStringSubmatch(s)[1]
		wantTitle := hostileTitle
		if lang == "es" {
			wantTitle = "Currículos"
		}
		one := func(key, want string) {
			t.Helper()
			if got := m[key]; len(got) != 1 || got[0] != want {
				t.Errorf("%s: %s = %q, want %q", name, key, got, want)
			}
		}
		one("og:site_name", wantTitle)
		one("og:locale", strings.ReplaceAll(lang, "-", "_"))
		one("twitter:card", "summary_large_image")
		if got := m["og:image"]; len(got) != 1 || !regexp.MustCompile(`^https://curricula\.example\.org/assets/social\.[0-9a-f]{8}\.jpg$`).MatchString(got[0]) {
			t.Errorf("%s: og:image %q", name, got)
		}
		if name != "404.html" {
			canonical := regexp.MustCompile(`<link rel="canonical" href="([^"]+)">`).FindStringSubmatch(s)
			if canonical == nil {
				t.Fatalf("%s: no canonical link", name)
			}
			one("og:url", html.UnescapeString(canonical[1]))
		}
		wantType := "website"
		if regexp.MustCompile(`<body class="page-node"`).MatchString(s) {
			wantType = "article"
		}
		one("og:type", wantType)
		if len(m["og:title"]) != 1 || m["og:title"][0] == "" {
			t.Errorf("%s: og:title %q", name, m["og:title"])
		}
		for _, a := range m["og:locale:alternate"] {
			if a == m["og:locale"][0] {
				t.Errorf("%s: its own locale %s among the alternates", name, a)
			}
		}
		up := strings.Repeat("../", strings.Count(name, "/"))
		if name == "404.html" {
			up = "https://curricula.example.org/"
		}
		for _, want := range []string{
			`<img class="site-logo" src="` + up + `assets/logo.`,
			`<link rel="icon" href="` + up + `assets/favicon.`,
			`<link rel="stylesheet" href="` + up + `assets/identity.`,
			`<script src="https://stats.example.org/js/script.js?id=a&amp;b=c" defer></script>`,
		} {
			if !strings.Contains(s, want) {
				t.Errorf("%s lacks %s", name, want)
			}
		}
		if lang == "es" {
			if !strings.Contains(s, `<p class="site-footer__text">Pie</p>`) || strings.Contains(s, "site-footer__links") {
				t.Errorf("%s: the Spanish footer (its text, no links) is not there", name)
			}
			continue
		}
		for _, want := range []string{
			`<p class="site-footer__text">© Riverbend &lt;b&gt;</p>`,
			`<li><a href="` + up + `about/?x=1#team">About &lt;us&gt;</a></li>`,
			`<li><a href="https://example.org/legal?a=1&amp;b=2">Legal</a></li>`,
			`<li><a href="/privacy.html">Root</a></li>`,
		} {
			if !strings.Contains(s, want) {
				t.Errorf("%s lacks %s", name, want)
			}
		}
	}
	if pages < 100 {
		t.Fatalf("%d pages: the sample should give hundreds", pages)
	}
	if home := string(w.files["index.html"]); !strings.Contains(home, `<html lang="fr">`) {
		t.Error("the catalog is not in the site's language")
	}
}

// TestSocialWithoutSiteURL: og:url and a local og:image need absolute
// addresses, so without a site URL they are left out and the card is a
// summary.
func TestSocialWithoutSiteURL(t *testing.T) {
	t.Parallel()
	_, w, _ := identityFixture(t, "")
	m := metas(t, w.files["index.html"])
	if m["og:url"] != nil || m["og:image"] != nil {
		t.Errorf("og:url %q, og:image %q without a site URL", m["og:url"], m["og:image"])
	}
	if got := m["twitter:card"]; len(got) != 1 || got[0] != "summary" {
		t.Errorf("twitter:card %q", got)
	}
}

func TestIdentityFileErrors(t *testing.T) {
	t.Parallel()
	big := filepath.Join(t.TempDir(), "big.png")
	if err := os.WriteFile(big, make([]byte, localfile.MaxImage+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id  render.Identity
		key string
	}{
		{render.Identity{Logo: filepath.Join(t.TempDir(), "missing.svg")}, setting.SiteLogo},
		{render.Identity{Favicon: big}, setting.SiteFavicon},
		{render.Identity{Image: t.TempDir() + "/x.png/.."}, setting.SiteImage},
	} {
		_, err := New(Options{Identity: tc.id})
		if se, ok := setting.Of(err); !ok || se.Name != tc.key {
			t.Errorf("New(%+v) = %v, want an error naming %s", tc.id, err, tc.key)
		}
	}
}

// TestGoldenIdentity compares pages of the sample site rendered with a
// publisher's identity and a site URL with testdata/.
func TestGoldenIdentity(t *testing.T) {
	t.Parallel()
	_, w, _ := identityFixture(t, "https://curricula.example.org/")
	for _, tc := range []struct{ name, page string }{
		{"identity-catalog", "index.html"},
		{"identity-node-texas-es", "algebra-1/texas/es/alg-u1-l1/index.html"},
		{"identity-node-texas-en", "algebra-1/texas/en/alg-u1-l1/index.html"},
		{"identity-notfound", "404.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := w.files[tc.page]
			if !ok {
				t.Fatalf("%s not written", tc.page)
			}
			golden.Check(t, filepath.Join("testdata", tc.name+".golden.html"), got)
		})
	}
}
