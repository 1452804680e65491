package html

import (
	"testing"

	"golang.org/x/net/html"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
)

// factsFixture is a site of one Spanish tree (primary locale English)
// whose node n is set up by the caller.
func factsFixture(n *model.Node) *fixture {
	c := &Curriculum{ID: "c1", Name: "Álgebra", Slug: "algebra", PrimaryLocale: "en",
		Locales:  []model.Locale{{Code: "en", Name: "English", Slug: "en", IsPrimary: true}, {Code: "es", Name: "Español", Slug: "es"}},
		Variants: []Variant{{ID: "c1", Slug: "base"}}, Exported: map[string]bool{"base/es": true}}
	e := model.Export{CurriculumID: "c1", CurriculumName: "Álgebra", Locale: "es", PrimaryLocale: "en",
		CurriculumSlug: "algebra", VariantSlug: "base", LocaleSlug: "es"}
	n.Segment, n.WorkflowStatus = "n1", model.StatusPublished
	t := &model.Tree{Export: e, Nodes: []*model.Node{n}}
	return &fixture{site: &SiteInfo{Generator: "curex test", Curricula: []*Curriculum{c}}, trees: []*model.Tree{t},
		outlines: outlineMap{e.Dir(): OutlineOf(t)}}
}

// TestLabelOfBlankTypeDisplay: a type_display of white space alone is no
// label; the website shows the type's name and ordinal, as the handbook
// and the cartridge did (issue 24, section 2: the website printed the
// blanks).
func TestLabelOfBlankTypeDisplay(t *testing.T) {
	t.Parallel()
	n := &model.Node{ID: "n1", Title: "Variables", TypeDisplay: "   ", NodeType: model.NodeType{Name: "lesson", DisplayName: "Lección"},
		OrdinalLabel: "3", Translation: model.Translation{IsTranslated: true, Status: "translated", SourceLocale: "es"}}
	f := factsFixture(n)
	w := f.render(t, Options{})
	doc := parse(t, w, layout.NodePage(f.trees[0].Export, n.Segment))
	types := find(doc, "p", "class", "node__type")
	if len(types) != 1 || text(types[0]) != "Lección 3" {
		t.Errorf("node page label %q, want one reading %q", textsOf(types), "Lección 3")
	}
}

// TestFallbackStatusSpelling: a node the API says is not translated
// (is_translated false) is shown in its source locale whatever its
// translation_status says, "Fallback" capitalised included; the website
// read only an exact "fallback" (issue 24, section 2).
func TestFallbackStatusSpelling(t *testing.T) {
	t.Parallel()
	for _, status := range []string{"fallback", "Fallback", "FALLBACK", ""} {
		t.Run(status, func(t *testing.T) {
			t.Parallel()
			n := &model.Node{ID: "n1", Title: "Variables", NodeType: model.NodeType{Name: "lesson", DisplayName: "Lesson"}, OrdinalLabel: "1",
				Translation: model.Translation{Status: status, SourceLocale: "en"}}
			f := factsFixture(n)
			w := f.render(t, Options{})
			doc := parse(t, w, layout.NodePage(f.trees[0].Export, n.Segment))
			notice := find(doc, "p", "class", "notice notice--fallback")
			body := find(doc, "div", "class", "node__content")
			if len(body) != 1 {
				t.Fatalf("%d node__content elements", len(body))
			}
			if lang, _ := attr(body[0], "lang"); len(notice) != 1 || lang != "en" {
				t.Errorf("status %q: %d fallback notices, content lang %q; want 1 and \"en\"", status, len(notice), lang)
			}
		})
	}
}

func textsOf(ns []*html.Node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, text(n))
	}
	return out
}
