package fetch

import "testing"

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
