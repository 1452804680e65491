package cartridge

import (
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/attrs"
	"github.com/curex/curex/exporter/internal/render/i18n"
)

// TestAttributeOrderLabelsAndValues: the cartridge's pages show
// attributes as every format does (issues 25 item 6 and 26 part 3): the
// publisher's order and labels, a count grouped, a date in the page's
// language and a URL as a link.
func TestAttributeOrderLabelsAndValues(t *testing.T) {
	words, err := i18n.Builtin().WithAttributeLabels(i18n.AttributeLabels{"teacher_notes": {"es": "Para el docente", "ja": "指導メモ"}})
	if err != nil {
		t.Fatal(err)
	}
	r := New(Options{Words: words, Order: attrs.Order{"teacher_notes"}})
	for _, tc := range []struct{ locale, label, count, date string }{
		{"es", "Para el docente", "12.500", "3 de marzo de 2026"},
		{"ja", "指導メモ", "12,500", "2026年3月3日"},
	} {
		tr := tree(tc.locale, node("l1", "Lesson", map[string]string{
			"learning_objectives": `["Solve it"]`, "teacher_notes": `"Notes."`, "item_count": `12500`, "due": `"2026-03-03"`,
			"resource": `"https://example.org/r"`,
		}))
		page := string(open(t, makeCartridge(t, r, tr)).files[PagesDir+"l1.html"])
		label, objectives := strings.Index(page, tc.label), strings.Index(page, `class="objectives"`)
		if label < 0 || objectives < label || !strings.Contains(page, tc.count) || !strings.Contains(page, tc.date) ||
			!strings.Contains(page, `href="https://example.org/r"`) {
			t.Errorf("%s: label at %d before objectives at %d, count %q, date %q, link:\n%s", tc.locale, label, objectives, tc.count, tc.date, page)
		}
	}
}
