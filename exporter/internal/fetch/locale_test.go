package fetch

import (
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/slug"
)

// TestNormalizeLocale: language tags are kept as served, POSIX and Rails
// style codes become tags, and what is still no tag is refused.
func TestNormalizeLocale(t *testing.T) {
	for _, tc := range []struct {
		code, want string
		ok         bool
	}{
		{"en", "en", true},
		{"pt-BR", "pt-BR", true},
		{"EN", "EN", true},
		{"pt_BR", "pt-BR", true},
		{"zh_Hant_TW", "zh-Hant-TW", true},
		{"pt_BR.UTF-8", "pt-BR", true},
		{" es ", "es", true},
		{"", "", false},
		{"   ", "", false},
		{"español!", "", false},
		{"en US", "", false},
		{"x", "", false},
		{"../../etc", "", false},
		{"und", "und", true},
	} {
		got, ok := NormalizeLocale(tc.code)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NormalizeLocale(%q) = %q, %v; want %q, %v", tc.code, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzNormalizeLocale: a code NormalizeLocale accepts becomes a tag the
// JSON bundle accepts, which normalizes to itself and names a safe folder.
func FuzzNormalizeLocale(f *testing.F) {
	for _, s := range []string{"en", "pt_BR", "zh_Hant_TW", "pt_BR.UTF-8", "sr_RS@latin", "", "x", "und", "en-US-u-ca-gregory", "i-klingon", "es_419", "../..", "EN_us"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		tag, ok := NormalizeLocale(code)
		if !ok {
			if tag != "" {
				t.Fatalf("NormalizeLocale(%q) = %q, false", code, tag)
			}
			return
		}
		if !safeLocale.MatchString(tag) {
			t.Fatalf("NormalizeLocale(%q) = %q, not a tag", code, tag)
		}
		if again, ok := NormalizeLocale(tag); !ok || again != tag {
			t.Fatalf("NormalizeLocale(%q) = %q, %v; want it unchanged", tag, again, ok)
		}
		// A tag names its folder in lower case, but for a name Windows
		// reserves ("nul", "con", ...), which gets a slug of its own.
		s := LocaleSlug(tag)
		if strings.ContainsAny(s, "/\\.") || slug.Reserved(s) {
			t.Fatalf("LocaleSlug(%q) = %q, not a safe folder", tag, s)
		}
		if s != strings.ToLower(tag) && !slug.Reserved(tag) {
			t.Fatalf("LocaleSlug(%q) = %q, want %q", tag, s, strings.ToLower(tag))
		}
	})
}
