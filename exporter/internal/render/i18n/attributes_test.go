package i18n

import (
	"testing"
	"time"
)

func TestAttributeLabel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		locale, key, want string
	}{
		{"en", "learning_objectives", "Learning objectives"},
		{"es", "learning_objectives", "Objetivos de aprendizaje"},
		{"pt_BR", "learning_objectives", "Objetivos de aprendizagem"},
		{"xx", "description", "Description"},
		// A key the catalogs hold for the interface is no attribute label.
		{"en", "search", ""},
		{"en", "next", ""},
		{"en", "unknown_member", ""},
		{"en", "", ""},
	} {
		if got := For(tc.locale).AttributeLabel(tc.key); got != tc.want {
			t.Errorf("For(%q).AttributeLabel(%q) = %q, want %q", tc.locale, tc.key, got, tc.want)
		}
	}
}

func TestDate(t *testing.T) {
	t.Parallel()
	d := time.Date(2026, time.March, 5, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		m    Messages
		want string
	}{
		{"en", For("en"), "March 5, 2026"},
		{"es", For("es"), "5 de marzo de 2026"},
		{"ja", For("ja"), "2026年3月5日"},
		{"months not twelve", Messages{"months": "one two"}, "2026-03-05"},
	} {
		if got := tc.m.Date(d); got != tc.want {
			t.Errorf("%s: Date = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestDurationAndYesNo: values that carry a unit or a kind read in the
// page's language (issue 25, item 6: "Estimated time 50").
func TestDurationAndYesNo(t *testing.T) {
	for _, tc := range []struct {
		lang    string
		minutes int
		want    string
		yes     string
	}{
		{"en", 50, "50 min", "Yes"},
		{"en", 450, "7 hr 30 min", "Yes"},
		{"en", 120, "2 hr", "Yes"},
		{"en", 0, "0 min", "Yes"},
		{"es", 90, "1 h 30 min", "Sí"},
		{"de", 45, "45 Min.", "Ja"},
		{"ar", 50, "50 د", "نعم"},
		{"ja", 50, "50 分", "はい"},
		{"zh", 60, "1小时", "是"},
	} {
		m := For(tc.lang)
		if got := m.Duration(tc.minutes); got != tc.want {
			t.Errorf("%s: Duration(%d) = %q, want %q", tc.lang, tc.minutes, got, tc.want)
		}
		if got := m.YesNo(true); got != tc.yes {
			t.Errorf("%s: YesNo(true) = %q, want %q", tc.lang, got, tc.yes)
		}
	}
}
