package fetch_test

import (
	"reflect"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/model"
)

// TestCatalog: the plan becomes the model's catalog once, its API types
// left behind: names as one-line texts, each locale with its folder and
// primary when the API marks it so or it is the curriculum's primary
// locale, the variants and exports as planned.
func TestCatalog(t *testing.T) {
	e := model.Export{CurriculumID: "1", Locale: "pt-BR", CurriculumSlug: "algebra", VariantSlug: model.BaseSlug, LocaleSlug: "pt-br"}
	tests := []struct {
		name string
		cp   fetch.CurriculumPlan
		want model.Curriculum
	}{
		{
			name: "names and locales",
			cp: fetch.CurriculumPlan{
				Curriculum: api.Curriculum{ID: "1", Name: "Alg\u202Eebra\n1", Description: "Line one\nline two"},
				Slug:       "algebra", PrimaryLocale: "en",
				Locales: []api.Locale{
					{Code: "en", Name: "English", TranslationProgress: 100, PublishedProgress: 90},
					{Code: "pt-BR", Name: "Português\x00", IsPrimary: false, TranslationProgress: 40, PublishedProgress: 30},
					{Code: "CON", Name: "Reserved", IsPrimary: true},
				},
				Variants: []api.Variant{{ID: "2", Name: "Texas\t", ParentID: "1", Depth: 1, NodeCount: 9}},
				Exports:  []model.Export{e},
			},
			want: model.Curriculum{
				ID: "1", Name: "Alg\u202Eebra 1\u202C", Description: "Line one\nline two",
				Slug: "algebra", PrimaryLocale: "en",
				Locales: []model.Locale{
					{Code: "en", Name: "English", Slug: "en", IsPrimary: true, TranslationProgress: 100, PublishedProgress: 90},
					{Code: "pt-BR", Name: "Português ", Slug: "pt-br", TranslationProgress: 40, PublishedProgress: 30},
					{Code: "CON", Name: "Reserved", Slug: fetch.LocaleSlug("CON"), IsPrimary: true},
				},
				Variants: []model.Variant{{ID: "2", ParentID: "1", Name: "Texas ", Depth: 1}},
				Exports:  []model.Export{e},
			},
		},
		{
			name: "no locales, no variants",
			cp:   fetch.CurriculumPlan{Curriculum: api.Curriculum{ID: "9", Name: "Empty"}, Slug: "empty"},
			want: model.Curriculum{ID: "9", Name: "Empty", Slug: "empty", Locales: []model.Locale{}, Variants: []model.Variant{}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := &fetch.Plan{Curricula: []fetch.CurriculumPlan{tc.cp}}
			got := plan.Catalog()
			if len(got.Curricula) != 1 {
				t.Fatalf("%d curricula, want 1", len(got.Curricula))
			}
			if !reflect.DeepEqual(got.Curricula[0], tc.want) {
				t.Errorf("catalog\n got %+v\nwant %+v", got.Curricula[0], tc.want)
			}
			if c := got.Curriculum(tc.cp.Curriculum.ID); c != &got.Curricula[0] {
				t.Errorf("Curriculum(%q) = %p, want the first", tc.cp.Curriculum.ID, c)
			}
			if c := got.Curriculum("none"); c != nil {
				t.Errorf("Curriculum(none) = %+v, want nil", c)
			}
		})
	}
}
