package markdown

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/attrs"
	"github.com/curex/curex/exporter/internal/render/i18n"
)

// TestAttributeValuesOrderAndLabels: issues 25 (item 6) and 26 (part 3)
// in the Markdown bundle. Counts, dates and links read as the other
// formats show them, in the export's language; the publisher's order
// (attribute_order) and labels (attribute_labels) hold here too.
func TestAttributeValuesOrderAndLabels(t *testing.T) {
	words, err := i18n.Builtin().WithAttributeLabels(i18n.AttributeLabels{
		"teacher_notes": {"es": "Para el docente", "ja": "指導メモ", "ar": "ملاحظات المعلم الخاصة"},
		"item_count":    {"es": "Número de preguntas"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		locale string
		want   []string // in this order
	}{
		{"es", []string{"## Para el docente", "## Número de preguntas\n\n12.500", "3 de marzo de 2026", "<https://example.org/a>"}},
		{"es-MX", []string{"## Para el docente", "12.500"}},
		{"ja", []string{"## 指導メモ", "12,500", "2026年3月3日", "<https://example.org/a>"}},
		{"ar", []string{"## ملاحظات المعلم الخاصة", "12,500", "3 مارس 2026", "<https://example.org/a>"}},
	} {
		n := testNode("n1", "Node")
		n.Attributes = map[string]json.RawMessage{
			"description":   json.RawMessage(`"Lead."`),
			"due":           json.RawMessage(`"2026-03-03"`),
			"item_count":    json.RawMessage(`12500`),
			"resource":      json.RawMessage(`"https://example.org/a"`),
			"teacher_notes": json.RawMessage(`"Notes."`),
			"unsafe":        json.RawMessage(`"javascript:alert(1)"`),
		}
		tr := testTree(n)
		tr.Locale = tc.locale
		w, e := write(t, tr, Options{Words: words, Order: attrs.Order{"teacher_notes", "item_count", "no_such_key"}})
		page := string(w.bundleFiles(e)["01-node.md"])
		at := 0
		for _, s := range tc.want {
			i := strings.Index(page[at:], s)
			if i < 0 {
				t.Errorf("%s: %q missing, or out of order:\n%s", tc.locale, s, page)
				break
			}
			at += i
		}
		if lead, notes := strings.Index(page, "Lead."), strings.Index(page, "Notes."); lead < 0 || lead > notes {
			t.Errorf("%s: the lead text is not first:\n%s", tc.locale, page)
		}
		if strings.Contains(page, "<javascript") {
			t.Errorf("%s: a script URL became a link:\n%s", tc.locale, page)
		}
	}
}
