package html

import (
	"errors"
	"testing"

	"github.com/curex/curex/exporter/internal/changes"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
)

// TestWarmTree: the tree that completes its curriculum is handed to the
// website's rendering as it was kept, once; any other tree, a second ask,
// or a curriculum with a failed tree is read back from the run.
func TestWarmTree(t *testing.T) {
	a1 := model.Export{CurriculumID: "a", Locale: "en", CurriculumSlug: "a", VariantSlug: "base", LocaleSlug: "en"}
	a2 := model.Export{CurriculumID: "a", Locale: "es", CurriculumSlug: "a", VariantSlug: "base", LocaleSlug: "es"}
	b1 := model.Export{CurriculumID: "b", Locale: "en", CurriculumSlug: "b", VariantSlug: "base", LocaleSlug: "en"}
	tree := func(e model.Export) *model.Tree {
		return &model.Tree{Export: e, ETag: `"1"`, Nodes: []*model.Node{
			{ID: "n1", Title: "Published", WorkflowStatus: "published"},
		}}
	}
	catalog := &model.Catalog{Curricula: []model.Curriculum{{ID: "a", Exports: []model.Export{a1, a2}}, {ID: "b", Exports: []model.Export{b1}}}}
	errReadBack := errors.New("read back")

	tests := []struct {
		name     string
		order    []model.Export
		failed   map[model.Key]bool // exports that arrive failed
		wantWarm model.Key          // export kept warm after the arrivals, zero for none
	}{
		{name: "last tree of a curriculum", order: []model.Export{a1, a2}, wantWarm: a2.Key()},
		{name: "not the last tree", order: []model.Export{a1}},
		{name: "slot already taken", order: []model.Export{b1, a1, a2}, wantWarm: b1.Key()},
		{name: "a tree of the curriculum failed", order: []model.Export{a1, a2}, failed: map[model.Key]bool{a1.Key(): true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Website{outlines: outlines{}, histories: map[model.Key]*changes.History{}}
			// As Start does, without its rendering goroutine.
			s.left, s.spoiled = map[string]int{"a": 2, "b": 1}, map[string]bool{}
			s.catalog, s.queue = catalog, make(chan *model.Curriculum, 2)
			s.trees = func(model.Export) (*model.Tree, error) { return nil, errReadBack }
			for _, e := range tc.order {
				if tc.failed[e.Key()] {
					s.Arrived(e, false)
					continue
				}
				var entry output.ManifestExport
				if err := s.Keep(&render.Tree{Tree: tree(e)}, &changes.History{}, &entry); err != nil {
					t.Fatal(err)
				}
				if entry.Feed == "" {
					t.Error("entry names no feed")
				}
				s.Arrived(e, true)
			}
			if s.warm.key != tc.wantWarm {
				t.Fatalf("warm tree %q, want %q", s.warm.key, tc.wantWarm)
			}
			if tc.wantWarm == (model.Key{}) {
				return
			}
			var e model.Export
			for _, x := range []model.Export{a1, a2, b1} {
				if x.Key() == tc.wantWarm {
					e = x
				}
			}
			got, err := s.tree(e)
			if err != nil {
				t.Fatal(err)
			}
			if got.Export.Key() != tc.wantWarm {
				t.Errorf("warm tree of %q, want %q", got.Export.Key(), tc.wantWarm)
			}
			if _, err := s.tree(e); !errors.Is(err, errReadBack) {
				t.Errorf("a second ask: %v, want the tree read back", err)
			}
		})
	}
}
