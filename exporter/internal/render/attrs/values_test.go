package attrs

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestOrder: attribute_order (issue 26 part 3) puts the keys it lists
// first, in its order, after the lead text; the others keep the
// package's order; keys no node has are passed over.
func TestOrder(t *testing.T) {
	m := map[string]json.RawMessage{
		"description":         json.RawMessage(`"Lead."`),
		"learning_objectives": json.RawMessage(`["a"]`),
		"materials":           json.RawMessage(`["b"]`),
		"standards":           json.RawMessage(`["c"]`),
		"teacher_notes":       json.RawMessage(`"d"`),
	}
	for _, tc := range []struct {
		name  string
		order Order
		want  string
	}{
		{"none", nil, "description learning_objectives materials standards teacher_notes"},
		{"some", Order{"teacher_notes", "materials"}, "description teacher_notes materials learning_objectives standards"},
		{"unknown keys", Order{"nope", "standards", "also_nope"}, "description standards learning_objectives materials teacher_notes"},
		{"the lead stays first", Order{"materials", "description"}, "description materials learning_objectives standards teacher_notes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var keys []string
			for _, s := range tc.order.Parse(m, "T") {
				keys = append(keys, s.Key)
			}
			if got := strings.Join(keys, " "); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
	// A description that is not a string is no lead: the order moves it.
	m["description"] = json.RawMessage(`["not a lead"]`)
	var keys []string
	for _, s := range (Order{"materials"}).Parse(m, "T") {
		keys = append(keys, s.Key)
	}
	if !slices.Equal(keys[:2], []string{"materials", "description"}) {
		t.Errorf("%q", keys)
	}
}

// TestValuesOfAKind: which values are counts, dates and links (issue 25
// item 6), decided once for every format.
func TestValuesOfAKind(t *testing.T) {
	num := func(s string) Value { return Value{Kind: Number, Text: s} }
	text := func(s string) Value { return Value{Kind: Text, Text: s} }
	for _, tc := range []struct {
		key  string
		v    Value
		want string // "" for no count
	}{
		{"item_count", num("12500"), "12500"},
		{"Word-Count", num("3"), "3"},
		{"points_possible", num("2.5"), "2.5"},
		{"num_items", num("-4"), "-4"},
		{"number_of_tasks", num("7"), "7"},
		{"bonus_points", num("10"), "10"},
		{"year", num("2026"), ""},
		{"id", num("12500"), ""},
		{"item_count", num("1e5"), ""},
		{"item_count", text("12500"), ""},
	} {
		got, ok := Count(tc.key, tc.v)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Count(%q, %q) = %q, %v; want %q", tc.key, tc.v.Text, got, ok, tc.want)
		}
	}
	for _, tc := range []struct {
		s, want string // "" for no date
	}{
		{"2026-03-03", "2026-03-03"},
		{" 2026-03-03\n", "2026-03-03"},
		{"2026-03-03T23:30:00-08:00", "2026-03-03"}, // the date written, not UTC's
		{"2026-03-03T00:30:00+09:00", "2026-03-03"},
		{"2026-03-03T00:30:00Z", "2026-03-03"},
		{"2026-02-30", ""},
		{"2026-03-03 and more", ""},
		{"2026-03-03T25:00:00Z", ""},
		{"3 March 2026", ""},
		{"20260303", ""},
	} {
		d, ok := Date(text(tc.s))
		if got := map[bool]string{true: d.Format(time.DateOnly)}[ok]; got != tc.want || ok && d.Location() != time.UTC {
			t.Errorf("Date(%q) = %q, %v; want %q", tc.s, got, ok, tc.want)
		}
	}
	for _, tc := range []struct {
		s, want string // "" for no link
	}{
		{"https://example.org/a?b=1&c=2", "https://example.org/a?b=1&c=2"},
		{" HTTP://example.org ", "HTTP://example.org"},
		{"javascript:alert(1)", ""},
		{"ftp://example.org/f", ""},
		{"https://example.org/a b", ""},
		{"see https://example.org", ""},
		{"https:///nohost", ""},
		{"https://example.org/<script>", ""},
		{"/relative/path", ""},
	} {
		got, ok := Link(text(tc.s))
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Link(%q) = %q, %v; want %q", tc.s, got, ok, tc.want)
		}
	}
}
