package sandbox_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

// TestEditMovesUpdatedAt: an edit of a curriculum's record or content
// moves its updated_at, as the API would; one of its translations alone
// does not, and an updated_at the edit sets itself is kept.
func TestEditMovesUpdatedAt(t *testing.T) {
	set := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		edit  func(c *dataset.Curriculum)
		moved bool
		want  time.Time
	}{
		{"node retitled", func(c *dataset.Curriculum) { c.Nodes[0].Title = "Unit one, revised" }, true, time.Time{}},
		{"renamed", func(c *dataset.Curriculum) { c.Name += " (2nd edition)" }, true, time.Time{}},
		{"attribute changed", func(c *dataset.Curriculum) {
			c.Nodes[0].Attributes = map[string]json.RawMessage{"description": json.RawMessage(`"new"`)}
		}, true, time.Time{}},
		{"translation fixed", func(c *dataset.Curriculum) {
			for code, tr := range c.Translations {
				for id, x := range tr {
					x.Title += " (corregido)"
					c.Translations[code][id] = x
				}
			}
		}, false, time.Time{}},
		{"updated_at set by the edit", func(c *dataset.Curriculum) { c.Nodes[0].Title = "x"; c.UpdatedAt = set }, true, set},
		{"nothing", func(*dataset.Curriculum) {}, false, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newTiny(t)
			old := h.Index().Curriculum("b1").UpdatedAt
			if err := h.Edit(func(ds *dataset.Dataset) error {
				for i := range ds.Curricula {
					if ds.Curricula[i].ID == "b1" {
						tc.edit(&ds.Curricula[i])
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			got := h.Index().Curriculum("b1").UpdatedAt
			switch {
			case !tc.want.IsZero() && !got.Equal(tc.want):
				t.Errorf("updated_at = %v, want %v as the edit set it", got, tc.want)
			case tc.moved && !got.After(old):
				t.Errorf("updated_at = %v, want after %v", got, old)
			case !tc.moved && !got.Equal(old):
				t.Errorf("updated_at moved to %v, want %v", got, old)
			}
		})
	}
}
