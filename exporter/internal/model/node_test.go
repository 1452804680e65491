package model

import "testing"

func TestLabel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                       string
		display, typeName, ordinal string
		want                       string
	}{
		{"type_display as served", "Unit 1", "Unit", "9", "Unit 1"},
		{"type_display kept whole", " Unit 1 ", "", "", " Unit 1 "},
		{"no type_display", "", "Lesson", "3", "Lesson 3"},
		// The website printed the blanks; the handbook and the cartridge
		// fell back: the fallback is the rule.
		{"blank type_display", " \t ", "Lesson", "3", "Lesson 3"},
		{"type name alone", "", "Lesson", "", "Lesson"},
		{"ordinal alone", "", "", "3", "3"},
		{"nothing", "", "", "", ""},
		{"blank everything", " ", " ", " ", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := &Node{TypeDisplay: tc.display, NodeType: NodeType{DisplayName: tc.typeName}, OrdinalLabel: tc.ordinal}
			if got := n.Label(); got != tc.want {
				t.Errorf("Label() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFallbackLocale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name            string
		locale, primary string
		tr              Translation
		want            string
	}{
		{"translated", "es", "en", Translation{IsTranslated: true, Status: "translated", SourceLocale: "es"}, ""},
		{"fallback to the source", "es", "en", Translation{Status: "fallback", SourceLocale: "en"}, "en"},
		{"source other than primary", "es", "en", Translation{Status: "fallback", SourceLocale: "fr"}, "fr"},
		{"no source: the primary", "es", "en", Translation{Status: "fallback"}, "en"},
		{"source is the export's own: the primary", "es", "en", Translation{SourceLocale: "es"}, "en"},
		{"source spelled otherwise is the export's own", "pt-BR", "en", Translation{SourceLocale: "pt_br"}, "en"},
		// is_translated decides; the status is not read (the website read
		// an exact "fallback", the handbook is_translated).
		{"status capitalised", "es", "en", Translation{Status: "Fallback", SourceLocale: "en"}, "en"},
		{"status unknown", "es", "en", Translation{Status: "machine", SourceLocale: "en"}, "en"},
		{"status says fallback, is_translated says translated", "es", "en", Translation{IsTranslated: true, Status: "fallback", SourceLocale: "en"}, ""},
		{"primary locale", "en", "en", Translation{Status: "original", SourceLocale: "en"}, ""},
		{"primary locale spelled pt_BR", "pt-BR", "pt_BR", Translation{Status: "fallback", SourceLocale: "en"}, ""},
		{"primary locale in another case", "pt-br", "pt-BR", Translation{}, ""},
		{"no primary named, a source", "es", "", Translation{SourceLocale: "fr"}, "fr"},
		{"no primary named, no source", "es", "", Translation{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := Export{Locale: tc.locale, PrimaryLocale: tc.primary}
			if got := e.FallbackLocale(&Node{Translation: tc.tr}); got != tc.want {
				t.Errorf("FallbackLocale() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestInPrimaryLocale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		locale, primary string
		want            bool
	}{
		{"en", "en", true},
		{"pt-BR", "pt_BR", true},
		{"PT-br", "pt-BR", true},
		{"es", "en", false},
		{"pt", "pt-BR", false},
		{"es", "", false},
	} {
		if got := (Export{Locale: tc.locale, PrimaryLocale: tc.primary}).InPrimaryLocale(); got != tc.want {
			t.Errorf("Export{Locale: %q, PrimaryLocale: %q}.InPrimaryLocale() = %v, want %v", tc.locale, tc.primary, got, tc.want)
		}
	}
}
