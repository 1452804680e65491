package model

import "testing"

func TestLocaleCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code            string
		fold, lang, tag string
	}{
		{"es", "es", "es", "es"},
		{"pt-BR", "pt-br", "pt", "pt-BR"},
		{"pt_BR", "pt-br", "pt", "pt-BR"},
		{"PT_br", "pt-br", "pt", "PT-br"},
		{"zh_Hant_TW", "zh-hant-tw", "zh", "zh-Hant-TW"},
		{" es-MX ", "es-mx", "es", "es-MX"},
		{"", "", "", ""},
	} {
		if got := FoldLocale(tc.code); got != tc.fold {
			t.Errorf("FoldLocale(%q) = %q, want %q", tc.code, got, tc.fold)
		}
		if got := LocaleLanguage(tc.code); got != tc.lang {
			t.Errorf("LocaleLanguage(%q) = %q, want %q", tc.code, got, tc.lang)
		}
		if got := LocaleTag(tc.code); got != tc.tag {
			t.Errorf("LocaleTag(%q) = %q, want %q", tc.code, got, tc.tag)
		}
	}
}

func TestSameLocale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"es", "es", true},
		{"pt_BR", "pt-BR", true},
		{"pt-br", "PT_BR", true},
		{"", "", true},
		{"pt", "pt-BR", false},
		{"es", "", false},
		{"es-419", "es", false},
	} {
		if got := SameLocale(tc.a, tc.b); got != tc.want {
			t.Errorf("SameLocale(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
