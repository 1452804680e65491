package exporter

import (
	"testing"

	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/output"
)

// TestWarmTree: the tree that completes its curriculum is handed to the
// website decoded, published nodes only, once; any other tree, a second
// ask, or a curriculum with a failed tree goes back to the kept body.
func TestWarmTree(t *testing.T) {
	a1 := model.Export{CurriculumID: "a", Locale: "en", CurriculumSlug: "a", VariantSlug: "base", LocaleSlug: "en"}
	a2 := model.Export{CurriculumID: "a", Locale: "es", CurriculumSlug: "a", VariantSlug: "base", LocaleSlug: "es"}
	b1 := model.Export{CurriculumID: "b", Locale: "en", CurriculumSlug: "b", VariantSlug: "base", LocaleSlug: "en"}
	tree := func(e model.Export) *model.Tree {
		return &model.Tree{Export: e, ETag: `"1"`, Nodes: []*model.Node{
			{ID: "n1", Title: "Published", WorkflowStatus: "published"},
			{ID: "n2", Title: "Draft", WorkflowStatus: "draft"},
		}}
	}
	plan := &fetch.Plan{Curricula: []fetch.CurriculumPlan{{Exports: []model.Export{a1, a2}}, {Exports: []model.Export{b1}}}}
	plan.Curricula[0].Curriculum.ID = "a"
	plan.Curricula[1].Curriculum.ID = "b"

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
			s := &siteRun{o: &siteOptions{}, bodies: &bodies{}, outlines: outlines{}, kept: map[model.Key]bodyRef{}, reused: map[model.Key]bool{}}
			// As start does, without its rendering goroutine.
			s.left, s.spoiled, s.early = map[string]int{"a": 2, "b": 1}, map[string]bool{}, map[model.Key]bool{}
			s.plan, s.queue = plan, make(chan *fetch.CurriculumPlan, 2)
			for _, e := range tc.order {
				if tc.failed[e.Key()] {
					s.arrived(e, false)
					continue
				}
				var entry output.ManifestExport
				// As the run hands trees over: published nodes only.
				r := fetch.Result{Export: e, Tree: visible(tree(e), false), NotModified: true}
				if err := s.keep(r, &entry); err != nil {
					t.Fatal(err)
				}
				s.arrived(e, true)
			}
			if s.warm.key != tc.wantWarm {
				t.Fatalf("warm tree %q, want %q", s.warm.key, tc.wantWarm)
			}
			if tc.wantWarm == (model.Key{}) {
				return
			}
			// bodies has no client: reading a body back would panic, so a
			// tree returned here is the warm one.
			got, err := s.tree(s.kept[tc.wantWarm])
			if err != nil {
				t.Fatal(err)
			}
			if got.Export.Key() != tc.wantWarm || len(got.Nodes) != 1 || got.Nodes[0].ID != "n1" {
				t.Errorf("warm tree: %+v, want %q with its published node n1 only", got, tc.wantWarm)
			}
			if s.take(tc.wantWarm) != nil {
				t.Error("the warm tree was handed out twice")
			}
		})
	}
}
