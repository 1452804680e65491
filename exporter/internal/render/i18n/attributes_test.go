package i18n

import (
	"errors"
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

// TestNumber: counts with the digit grouping of each language (issue 25
// item 6), Western digits unless a theme chooses others.
func TestNumber(t *testing.T) {
	arabicDigits, err := Builtin().WithOverrides(map[string][]byte{"i18n/ar.json": []byte(`{"digits": "٠١٢٣٤٥٦٧٨٩", "number_group": "٬", "number_decimal": "٫"}`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		m             Messages
		lang, n, want string
	}{
		{For("en"), "en", "12500", "12,500"},
		{For("en"), "en", "1234567.25", "1,234,567.25"},
		{For("en"), "en", "-1000", "-1,000"},
		{For("en"), "en", "999", "999"},
		{For("es"), "es", "12500", "12.500"},
		{For("es"), "es", "1500", "1500"},
		{For("es"), "es", "2.5", "2,5"},
		{For("fr"), "fr", "12500", "12\u202f500"},
		{For("de"), "de", "12500", "12.500"},
		{For("pt-BR"), "pt-BR", "1500", "1.500"},
		{For("ja"), "ja", "12500", "12,500"},
		{For("zh"), "zh", "12500", "12,500"},
		{For("ar"), "ar", "12500", "12,500"},
		{arabicDigits.For("ar"), "ar (theme)", "12500.5", "١٢٬٥٠٠٫٥"},
		{For("en"), "en", "1e5", "1e5"},
		{For("en"), "en", "12a", "12a"},
		{For("en"), "en", "", ""},
	} {
		if got := tc.m.Number(tc.n); got != tc.want {
			t.Errorf("%s: Number(%q) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

// TestAttributeLabels: the publisher's labels (attribute_labels) and a
// theme's attribute.KEY words are the one home of a label: per locale,
// a language's label for its regional locales too, a locale curex lacks
// on English's words; a bad label is a *LabelError naming key and locale.
func TestAttributeLabels(t *testing.T) {
	theme, err := Builtin().WithOverrides(map[string][]byte{"i18n/es-MX.json": []byte(`{"attribute.teacher_notes": "Notas (tema)"}`)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := theme.WithAttributeLabels(AttributeLabels{
		"teacher_notes": {"es": "Para el docente", "sw": "Maelezo ya mwalimu", "pt-BR": "Para o professor"},
		"item_count":    {"ja": "問題数", "ar": "عدد الأسئلة"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ locale, key, want string }{
		{"es", "teacher_notes", "Para el docente"},
		{"es-MX", "teacher_notes", "Para el docente"}, // labels given over a catalog win over its words
		{"es-AR", "teacher_notes", "Para el docente"},
		{"sw", "teacher_notes", "Maelezo ya mwalimu"},
		{"pt-BR", "teacher_notes", "Para o professor"},
		{"pt", "teacher_notes", For("pt").AttributeLabel("teacher_notes")},
		{"en", "teacher_notes", "Teacher notes"},
		{"ja", "item_count", "問題数"},
		{"ar", "item_count", "عدد الأسئلة"},
		{"en", "item_count", ""},
	} {
		if got := c.For(tc.locale).AttributeLabel(tc.key); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.locale, tc.key, got, tc.want)
		}
	}
	if got := theme.For("es-MX").AttributeLabel("teacher_notes"); got != "Notas (tema)" {
		t.Errorf("a theme's attribute word: %q", got)
	}
	for _, bad := range []AttributeLabels{
		{" teacher_notes": {"en": "x"}},
		{"teacher_notes": {"e s": "x"}},
		{"teacher_notes": {"en": " "}},
		{"teacher_notes": {"en": "two\nlines"}},
	} {
		var le *LabelError
		if _, err := Builtin().WithAttributeLabels(bad); !errors.As(err, &le) {
			t.Errorf("%v: %v, want a *LabelError", bad, err)
		}
	}
}
