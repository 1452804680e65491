package render

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/setting"
)

func TestIdentityCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   Identity
		// key is the setting the error names ("" for no error); want is in
		// its message.
		key, want string
	}{
		{name: "zero value", id: Identity{}},
		{name: "everything", id: Identity{Title: "Riverbend Curricula", Language: "es-MX", Logo: "logo.svg", Favicon: "favicon.ICO",
			Image: "https://cdn.example.org/card.png", Accent: "#1d4e89", Footer: "© Riverbend",
			Links:   []Link{{"About", "https://example.org/about"}, {"Legal", "legal/"}, {"Root", "/privacy.html"}},
			Scripts: []string{"https://stats.example.org/js/script.js?id=1"},
			Locales: map[string]LocaleIdentity{"es": {Title: "Currículos", Links: []Link{{"Acerca", "http://example.org/es"}}}}}},
		{name: "local card image", id: Identity{Image: "card.png"}},
		{name: "title with a newline", id: Identity{Title: "a\nb"}, key: setting.SiteTitle, want: "control"},
		{name: "title too long", id: Identity{Title: strings.Repeat("x", 201)}, key: setting.SiteTitle, want: "more than 200"},
		{name: "language without strings", id: Identity{Language: "sw"}, key: setting.SiteLanguage, want: "want one of ar, de, en"},
		{name: "language not a code", id: Identity{Language: "es;x"}, key: setting.SiteLanguage},
		{name: "logo URL", id: Identity{Logo: "https://example.org/logo.png"}, key: setting.SiteLogo, want: "local image file"},
		{name: "logo not an image", id: Identity{Logo: "logo.html"}, key: setting.SiteLogo},
		{name: "favicon data URL", id: Identity{Favicon: "data:image/png;base64,AAAA"}, key: setting.SiteFavicon},
		{name: "card image over http", id: Identity{Image: "http://example.org/card.png"}, key: setting.SiteImage},
		{name: "accent not hex", id: Identity{Accent: "red"}, key: setting.SiteAccent, want: "#rrggbb"},
		{name: "accent with CSS", id: Identity{Accent: "#fff;}body{display:none"}, key: setting.SiteAccent},
		{name: "accent too light", id: Identity{Accent: "#7fb2e5"}, key: setting.SiteAccent, want: "below WCAG AA"},
		{name: "accent on the soft background", id: Identity{Accent: "#767676"}, key: setting.SiteAccent, want: "4.19:1 on #f4f6f8"},
		{name: "accent yellow", id: Identity{Accent: "#ffcc00"}, key: setting.SiteAccent, want: "1.5"},
		{name: "link javascript", id: Identity{Links: []Link{{"x", "javascript:alert(1)"}}}, key: setting.SiteFooterLinks, want: "no other scheme"},
		{name: "link data", id: Identity{Links: []Link{{"x", "data:text/html,hi"}}}, key: setting.SiteFooterLinks},
		{name: "link mailto", id: Identity{Links: []Link{{"x", "mailto:a@example.org"}}}, key: setting.SiteFooterLinks},
		{name: "link protocol-relative", id: Identity{Links: []Link{{"x", "//evil.example/"}}}, key: setting.SiteFooterLinks},
		{name: "link with credentials", id: Identity{Links: []Link{{"x", "https://u:p@example.org/"}}}, key: setting.SiteFooterLinks},
		{name: "link without label", id: Identity{Links: []Link{{" ", "https://example.org/"}}}, key: setting.SiteFooterLinks, want: "no label"},
		{name: "script javascript", id: Identity{Scripts: []string{"javascript:alert(1)"}}, key: setting.SiteScripts, want: "https URL"},
		{name: "script data", id: Identity{Scripts: []string{"data:text/javascript,alert(1)"}}, key: setting.SiteScripts},
		{name: "script http", id: Identity{Scripts: []string{"http://stats.example.org/s.js"}}, key: setting.SiteScripts},
		{name: "script relative", id: Identity{Scripts: []string{"/s.js"}}, key: setting.SiteScripts},
		{name: "script wildcard host", id: Identity{Scripts: []string{"https://*.example.org/s.js"}}, key: setting.SiteScripts, want: "no wildcard"},
		{name: "script widening the policy", id: Identity{Scripts: []string{"https://a.example; script-src *"}}, key: setting.SiteScripts},
		{name: "locale twice", id: Identity{Locales: map[string]LocaleIdentity{"pt_BR": {}, "pt-br": {}}}, key: setting.SiteLocales, want: "the same locale"},
		{name: "locale bad code", id: Identity{Locales: map[string]LocaleIdentity{"e s": {}}}, key: setting.SiteLocales},
		{name: "locale bad link", id: Identity{Locales: map[string]LocaleIdentity{"es": {Links: []Link{{"x", "javascript:x"}}}}}, key: setting.SiteLocales, want: "es: links"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.id.Check()
			if tc.key == "" {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			se, ok := setting.Of(err)
			if !ok || se.Name != tc.key {
				t.Fatalf("Check = %v, want an error naming %s", err, tc.key)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check = %v, want %q in it", err, tc.want)
			}
		})
	}
}

func TestIdentityFor(t *testing.T) {
	id := Identity{Title: "Site", Footer: "Foot", Links: []Link{{"About", "about/"}},
		Locales: map[string]LocaleIdentity{
			"es":    {Title: "Sitio"},
			"pt_BR": {Footer: "Rodapé", Links: []Link{}},
		}}
	for _, tc := range []struct {
		code, title, footer string
		links               int
	}{
		{"en", "Site", "Foot", 1},
		{"es", "Sitio", "Foot", 1},
		{"es-MX", "Sitio", "Foot", 1},  // the language's overrides
		{"pt-br", "Site", "Rodapé", 0}, // an empty list replaces the links
		{"pt", "Site", "Foot", 1},      // pt-BR's are not pt's
	} {
		got := id.For(tc.code)
		if got.Title != tc.title || got.Footer != tc.footer || len(got.Links) != tc.links {
			t.Errorf("For(%q) = %+v, want %q, %q, %d links", tc.code, got, tc.title, tc.footer, tc.links)
		}
	}
}

func TestOrigins(t *testing.T) {
	id := Identity{Scripts: []string{"https://Stats.Example.org/a.js", "https://stats.example.org/b.js", "https://cdn.example.net:8443/c.js"}}
	got := strings.Join(id.Origins(), " ")
	if want := "https://stats.example.org https://cdn.example.net:8443"; got != want {
		t.Errorf("Origins = %q, want %q", got, want)
	}
}

func TestContrast(t *testing.T) {
	black, white := Color{}, Color{255, 255, 255}
	if r := Contrast(black, white); math.Abs(r-21) > 1e-9 {
		t.Errorf("black on white: %v, want 21", r)
	}
	// The default theme's accent, #0b5cad, is 6.67:1 on white.
	c, err := ParseColor("#0b5cad")
	if err != nil {
		t.Fatal(err)
	}
	if r := Contrast(c, white); math.Abs(r-6.67) > 0.01 {
		t.Errorf("#0b5cad on white: %.2f, want 6.67", r)
	}
}

// TestAccentColors: the dark-mode tint reaches AA on every dark
// background, and is the accent itself when that already does.
func TestAccentColors(t *testing.T) {
	for _, accent := range []string{"#1d4e89", "#000000", "#0b5cad", "#b3261e", "#006400", "#595959", "#5a2d82"} {
		light, dark, err := Identity{Accent: accent}.AccentColors()
		if err != nil {
			t.Fatalf("%s: %v", accent, err)
		}
		if light != accent {
			t.Errorf("%s: light %s", accent, light)
		}
		d, err := ParseColor(dark)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range darkBackgrounds {
			bg, _ := ParseColor(b)
			if r := Contrast(d, bg); r < MinContrast {
				t.Errorf("%s: dark %s has %.2f:1 on %s", accent, dark, r, b)
			}
		}
	}
	if _, dark, _ := (Identity{Accent: "#000"}).AccentColors(); dark == "#ffffff" || dark == "#000000" {
		t.Errorf("black's dark tint %s: want a grey, not an extreme", dark)
	}
}

func FuzzParseColor(f *testing.F) {
	for _, s := range []string{"#fff", "#1d4e89", "", "#", "#12345", "#ggg", "#+12", "1d4e89", "#-1-2-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseColor(s)
		if err != nil {
			return
		}
		// What parses spells back as #rrggbb, the only form written to CSS.
		out := c.String()
		if len(out) != 7 || strings.Trim(out[1:], "0123456789abcdef") != "" {
			t.Fatalf("ParseColor(%q) spells %q", s, out)
		}
		if strings.ToLower(s) != out && len(s) == 7 {
			t.Fatalf("ParseColor(%q) = %q", s, out)
		}
	})
}

// FuzzScriptOrigin: whatever ScriptOrigin accepts yields an origin that is
// one source of a Content-Security-Policy, https and a plain host, which
// cannot widen the policy past itself.
func FuzzScriptOrigin(f *testing.F) {
	for _, s := range []string{"https://stats.example.org/s.js?id=1", "https://*.example.org/", "https://a.example;script-src *",
		"javascript:alert(1)", "data:text/javascript,1", "https://[::1]:8443/x", "https://a%2Cb.example/", "https://a'b/"} {
		f.Add(s)
	}
	origin := regexp.MustCompile(`^https://[a-z0-9.\-\[\]:]+$`)
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ScriptOrigin(s)
		if err != nil {
			return
		}
		if !origin.MatchString(o) {
			t.Fatalf("ScriptOrigin(%q) = %q", s, o)
		}
	})
}
