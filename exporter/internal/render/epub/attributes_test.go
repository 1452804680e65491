package epub

import (
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/attrs"
	"github.com/curex/curex/exporter/internal/render/i18n"
)

// TestAttributeOrderLabelsAndValues: the book shows attributes as every
// format does (issues 25 item 6 and 26 part 3): the publisher's order
// and labels, a count grouped and a date in the book's language.
func TestAttributeOrderLabelsAndValues(t *testing.T) {
	words, err := i18n.Builtin().WithAttributeLabels(i18n.AttributeLabels{"teacher_notes": {"ar": "ملاحظات خاصة", "ja": "指導メモ"}})
	if err != nil {
		t.Fatal(err)
	}
	r := New(Options{Words: words, Order: attrs.Order{"teacher_notes"}})
	for _, tc := range []struct{ locale, label, count, date string }{
		{"ar", "ملاحظات خاصة", "12,500", "3 مارس 2026"},
		{"ja", "指導メモ", "12,500", "2026年3月3日"},
	} {
		tr := tree(tc.locale, node("Lesson", map[string]string{
			"learning_objectives": `["Solve it"]`, "teacher_notes": `"Notes."`, "item_count": `12500`, "due": `"2026-03-03"`,
		}))
		book, err := r.Render(tr, Info{LocaleName: tc.locale, ContentDate: tr.ResolvedAt})
		if err != nil {
			t.Fatal(err)
		}
		_, files := unzip(t, book)
		var text string
		for name, data := range files {
			if strings.HasSuffix(name, ".xhtml") && strings.Contains(string(data), "Notes.") {
				text = string(data)
			}
		}
		label, objectives := strings.Index(text, tc.label), strings.Index(text, `class="objectives"`)
		if label < 0 || objectives < label || !strings.Contains(text, tc.count) || !strings.Contains(text, tc.date) {
			t.Errorf("%s: label at %d before objectives at %d, count %q, date %q:\n%s", tc.locale, label, objectives, tc.count, tc.date, text)
		}
	}
}
