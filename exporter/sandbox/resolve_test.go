package sandbox_test

import (
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// Wire form of resolved responses (spec 2.5), decoded strictly.

type refJSON struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

type resolvedNodeJSON struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	Attributes struct {
		Title    string `json:"title"`
		Position int    `json:"position"`
		Depth    int    `json:"depth"`
		NodeType struct {
			Name        string `json:"name"`
			DisplayName string `json:"display_name"`
			Icon        string `json:"icon"`
		} `json:"node_type"`
		OrdinalLabel        string         `json:"ordinal_label"`
		TypeDisplay         string         `json:"type_display"`
		WorkflowStatus      string         `json:"workflow_status"`
		Attributes          map[string]any `json:"attributes"`
		InheritanceMetadata struct {
			IsInherited      bool   `json:"is_inherited"`
			SourceCurriculum string `json:"source_curriculum"`
			OverrideLevel    int    `json:"override_level"`
		} `json:"inheritance_metadata"`
		TranslationMetadata struct {
			IsTranslated      bool   `json:"is_translated"`
			TranslationStatus string `json:"translation_status"`
			SourceLocale      string `json:"source_locale"`
		} `json:"translation_metadata"`
	} `json:"attributes"`
	Children      []resolvedNodeJSON `json:"children"`
	Relationships map[string]struct {
		Data *refJSON `json:"data"`
	} `json:"relationships"`
}

type resolvedMetaJSON struct {
	VariantChain []string `json:"variant_chain"`
	Locale       string   `json:"locale"`
	NodeCount    int      `json:"node_count"`
	MaxDepth     int      `json:"max_depth"`
}

type resolvedCurriculumJSON struct {
	Data struct {
		ID         string `json:"id"`
		Type       string `json:"type"`
		Attributes struct {
			Name       string `json:"name"`
			Variant    string `json:"variant"`
			Locale     string `json:"locale"`
			ResolvedAt string `json:"resolved_at"`
		} `json:"attributes"`
		Relationships struct {
			ContentNodes struct {
				Data []resolvedNodeJSON `json:"data"`
			} `json:"content_nodes"`
		} `json:"relationships"`
	} `json:"data"`
	Meta resolvedMetaJSON `json:"meta"`
}

type resolvedNodeDocJSON struct {
	Data resolvedNodeJSON `json:"data"`
	Meta resolvedMetaJSON `json:"meta"`
}

// shape writes a tree as "u1(l1 l2(a1)) u2", in order.
func shape(ns []resolvedNodeJSON) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = n.ID
		if len(n.Children) > 0 {
			parts[i] += "(" + shape(n.Children) + ")"
		}
	}
	return strings.Join(parts, " ")
}

func flatten(ns []resolvedNodeJSON, into map[string]resolvedNodeJSON) map[string]resolvedNodeJSON {
	for _, n := range ns {
		into[n.ID] = n
		flatten(n.Children, into)
	}
	return into
}

// nodeWant is what one resolved node should look like.
type nodeWant struct {
	title       string
	typeDisplay string
	position    int
	status      string // workflow_status
	inherited   bool
	source      string // inheritance_metadata.source_curriculum
	level       int    // inheritance_metadata.override_level
	translation string // translation_status: original, translated or fallback
	displayName string // node_type.display_name
}

// TestResolved checks /curricula/:id/resolved on tiny.json for every variant
// and locale: tree shape, titles, ordinals, inheritance and translation.
func TestResolved(t *testing.T) {
	h := newTiny(t)
	type W = nodeWant
	baseEN := map[string]W{
		"u1": {"Unit one", "Unit 1", 0, "published", false, "Base", 0, "original", "Unit"},
		"l1": {"Lesson one", "Lesson 1", 0, "published", false, "Base", 0, "original", "Lesson"},
		"l2": {"Lesson two", "Lesson 2", 1, "published", false, "Base", 0, "original", "Lesson"},
		"a1": {"Activity", "Activity 1", 0, "published", false, "Base", 0, "original", "Activity"},
		"u2": {"Unit two", "Unit 2", 1, "published", false, "Base", 0, "original", "Unit"},
		"l3": {"Draft lesson", "Lesson 1", 0, "draft", false, "Base", 0, "original", "Lesson"},
		"x1": {"Glossary", "Appendix A", 2, "published", false, "Base", 0, "original", "Appendix"},
	}
	tests := []struct {
		name     string
		target   string
		id       string // data.id
		variant  string // attributes.variant
		locale   string
		chain    []string
		shape    string
		count    int
		resolved string // resolved_at
		nodes    map[string]W
		attrs    map[string]map[string]any // attributes.attributes of some nodes
	}{
		{
			name: "base", target: "/api/v1/curricula/b1/resolved", id: "b1", locale: "en",
			chain: []string{"Base"}, shape: "u1(l1 l2(a1)) u2(l3) x1", count: 7, resolved: "2026-02-01T00:00:00Z",
			nodes: baseEN,
			attrs: map[string]map[string]any{
				"u1": {"description": "About *one*.", "extra": map[string]any{"k": []any{1.0, 2.0}}},
				"l1": {"description": "L1", "estimated_minutes": 40.0},
				"a1": {},
			},
		},
		{
			name: "base, locale en", target: "/api/v1/curricula/b1/resolved?locale=en", id: "b1", locale: "en",
			chain: []string{"Base"}, shape: "u1(l1 l2(a1)) u2(l3) x1", count: 7, resolved: "2026-02-01T00:00:00Z",
			nodes: baseEN,
		},
		{
			name: "Region", target: "/api/v1/curricula/b1/resolved?variant=Region", id: "v1", variant: "Region", locale: "en",
			chain: []string{"Base", "Region"}, shape: "u1(l1 l4 l2(a1)) u2(l3) x1", count: 8, resolved: "2026-03-01T00:00:00Z",
			nodes: map[string]W{
				"u1": {"Unit one", "Unit 1", 0, "published", true, "Base", 0, "original", "Unit"},
				"l1": {"Lesson one (regional)", "Lesson 1", 0, "published", false, "Region", 1, "original", "Lesson"},
				"l4": {"Regional lesson", "Lesson 2", 1, "published", false, "Region", 0, "original", "Lesson"},
				"l2": {"Lesson two", "Lesson 3", 2, "published", true, "Base", 0, "original", "Lesson"},
				"a1": {"Activity", "Activity 1", 0, "published", true, "Base", 0, "original", "Activity"},
				"u2": {"Unit two", "Unit 2", 1, "published", true, "Base", 0, "original", "Unit"},
				"l3": {"Draft lesson", "Lesson 1", 0, "draft", true, "Base", 0, "original", "Lesson"},
				"x1": {"Glossary", "Appendix A", 2, "published", true, "Base", 0, "original", "Appendix"},
			},
			attrs: map[string]map[string]any{
				"l1": {"description": "L1", "estimated_minutes": 50.0, "standards": []any{"R.1"}},
			},
		},
		{
			name: "District", target: "/api/v1/curricula/b1/resolved?variant=District", id: "v2", variant: "District", locale: "en",
			chain: []string{"Base", "Region", "District"}, shape: "d0(d1) u1(l1 l4 l2(a1)) u2(l3) x1", count: 10, resolved: "2026-03-01T00:00:00Z",
			nodes: map[string]W{
				"d0": {"Welcome", "Unit 1", 0, "published", false, "District", 0, "original", "Unit"},
				"d1": {"Orientation", "Lesson 1", 0, "published", false, "District", 0, "original", "Lesson"},
				"u1": {"Unit one", "Unit 2", 1, "published", true, "Base", 0, "original", "Unit"},
				"l1": {"Lesson one (regional)", "Lesson 1", 0, "published", false, "District", 2, "original", "Lesson"},
				"l4": {"Regional lesson", "Lesson 2", 1, "published", true, "Region", 0, "original", "Lesson"},
				"l2": {"Lesson two", "Lesson 3", 2, "published", true, "Base", 0, "original", "Lesson"},
				"a1": {"Activity", "Activity 1", 0, "published", true, "Base", 0, "original", "Activity"},
				"u2": {"Unit two", "Unit 3", 2, "published", false, "District", 1, "original", "Unit"},
				"l3": {"Draft lesson", "Lesson 1", 0, "draft", true, "Base", 0, "original", "Lesson"},
				"x1": {"Glossary", "Appendix A", 3, "published", true, "Base", 0, "original", "Appendix"},
			},
			attrs: map[string]map[string]any{
				// standards removed by null, teacher_notes added, the rest merged.
				"l1": {"description": "L1", "estimated_minutes": 50.0, "teacher_notes": "Local."},
				"d0": {},
			},
		},
		{
			name: "base es", target: "/api/v1/curricula/b1/resolved?locale=es", id: "b1", locale: "es",
			chain: []string{"Base"}, shape: "u1(l1 l2(a1)) u2(l3) x1", count: 7, resolved: "2026-02-01T00:00:00Z",
			nodes: map[string]W{
				"u1": {"Unidad uno", "Unidad 1", 0, "published", false, "Base", 0, "translated", "Unidad"},
				"l1": {"Lección uno", "Lección 1", 0, "published", false, "Base", 0, "translated", "Lección"},
				"l2": {"Lección dos", "Lección 2", 1, "published", false, "Base", 0, "translated", "Lección"},
				"a1": {"Activity", "Activity 1", 0, "published", false, "Base", 0, "fallback", "Activity"},
				"u2": {"Unit two", "Unidad 2", 1, "published", false, "Base", 0, "fallback", "Unidad"},
				"l3": {"Draft lesson", "Lección 1", 0, "draft", false, "Base", 0, "fallback", "Lección"},
				"x1": {"Glossary", "Appendix A", 2, "published", false, "Base", 0, "fallback", "Appendix"},
			},
			attrs: map[string]map[string]any{
				// The translated member replaces, the others stay.
				"u1": {"description": "Sobre *uno*.", "extra": map[string]any{"k": []any{1.0, 2.0}}},
				"l1": {"description": "L1", "estimated_minutes": 40.0},
			},
		},
		{
			name: "Region es", target: "/api/v1/curricula/b1/resolved?variant=Region&locale=es", id: "v1", variant: "Region", locale: "es",
			chain: []string{"Base", "Region"}, shape: "u1(l1 l4 l2(a1)) u2(l3) x1", count: 8, resolved: "2026-03-01T00:00:00Z",
			nodes: map[string]W{
				"u1": {"Unidad uno", "Unidad 1", 0, "published", true, "Base", 0, "translated", "Unidad"},
				"l1": {"Lección uno (regional)", "Lección 1", 0, "published", false, "Region", 1, "translated", "Lección"},
				"l4": {"Lección regional", "Lección 2", 1, "published", false, "Region", 0, "translated", "Lección"},
				"l2": {"Lección dos", "Lección 3", 2, "published", true, "Base", 0, "translated", "Lección"},
				"a1": {"Activity", "Activity 1", 0, "published", true, "Base", 0, "fallback", "Activity"},
				"u2": {"Unit two", "Unidad 2", 1, "published", true, "Base", 0, "fallback", "Unidad"},
				"l3": {"Draft lesson", "Lección 1", 0, "draft", true, "Base", 0, "fallback", "Lección"},
				"x1": {"Glossary", "Appendix A", 2, "published", true, "Base", 0, "fallback", "Appendix"},
			},
		},
		{
			// v2 overrode only attributes of l1 that no translation covers,
			// so v1's translation of its title still holds; l4 keeps v1's
			// translation, u1 and l2 the base's.
			name: "District es", target: "/api/v1/curricula/b1/resolved?variant=District&locale=es", id: "v2", variant: "District", locale: "es",
			chain: []string{"Base", "Region", "District"}, shape: "d0(d1) u1(l1 l4 l2(a1)) u2(l3) x1", count: 10, resolved: "2026-03-01T00:00:00Z",
			nodes: map[string]W{
				"d0": {"Welcome", "Unidad 1", 0, "published", false, "District", 0, "fallback", "Unidad"},
				"d1": {"Orientation", "Lección 1", 0, "published", false, "District", 0, "fallback", "Lección"},
				"u1": {"Unidad uno", "Unidad 2", 1, "published", true, "Base", 0, "translated", "Unidad"},
				"l1": {"Lección uno (regional)", "Lección 1", 0, "published", false, "District", 2, "translated", "Lección"},
				"l4": {"Lección regional", "Lección 2", 1, "published", true, "Region", 0, "translated", "Lección"},
				"l2": {"Lección dos", "Lección 3", 2, "published", true, "Base", 0, "translated", "Lección"},
				"a1": {"Activity", "Activity 1", 0, "published", true, "Base", 0, "fallback", "Activity"},
				"u2": {"Unit two", "Unidad 3", 2, "published", false, "District", 1, "fallback", "Unidad"},
				"l3": {"Draft lesson", "Lección 1", 0, "draft", true, "Base", 0, "fallback", "Lección"},
				"x1": {"Glossary", "Appendix A", 3, "published", true, "Base", 0, "fallback", "Appendix"},
			},
			attrs: map[string]map[string]any{
				"l1": {"description": "L1", "estimated_minutes": 50.0, "teacher_notes": "Local."},
				"u1": {"description": "Sobre *uno*.", "extra": map[string]any{"k": []any{1.0, 2.0}}},
			},
		},
		{
			// The only ar translation is a draft: nothing is translated, and no
			// node type has an Arabic display name.
			name: "base ar", target: "/api/v1/curricula/b1/resolved?locale=ar", id: "b1", locale: "ar",
			chain: []string{"Base"}, shape: "u1(l1 l2(a1)) u2(l3) x1", count: 7, resolved: "2026-02-01T00:00:00Z",
			nodes: map[string]W{
				"u1": {"Unit one", "Unit 1", 0, "published", false, "Base", 0, "fallback", "Unit"},
				"l1": {"Lesson one", "Lesson 1", 0, "published", false, "Base", 0, "fallback", "Lesson"},
				"x1": {"Glossary", "Appendix A", 2, "published", false, "Base", 0, "fallback", "Appendix"},
			},
			attrs: map[string]map[string]any{
				"u1": {"description": "About *one*.", "extra": map[string]any{"k": []any{1.0, 2.0}}},
			},
		},
		{
			name: "variant asked directly", target: "/api/v1/curricula/v1/resolved?locale=es", id: "v1", locale: "es",
			chain: []string{"Base", "Region"}, shape: "u1(l1 l4 l2(a1)) u2(l3) x1", count: 8, resolved: "2026-03-01T00:00:00Z",
			nodes: map[string]W{"l1": {"Lección uno (regional)", "Lección 1", 0, "published", false, "Region", 1, "translated", "Lección"}},
		},
		{
			name: "nested variant through its parent", target: "/api/v1/curricula/v1/resolved?variant=District", id: "v2", variant: "District", locale: "en",
			chain: []string{"Base", "Region", "District"}, shape: "d0(d1) u1(l1 l4 l2(a1)) u2(l3) x1", count: 10, resolved: "2026-03-01T00:00:00Z",
		},
		{
			name: "variant naming itself", target: "/api/v1/curricula/v2/resolved?variant=District&locale=es", id: "v2", variant: "District", locale: "es",
			chain: []string{"Base", "Region", "District"}, shape: "d0(d1) u1(l1 l4 l2(a1)) u2(l3) x1", count: 10, resolved: "2026-03-01T00:00:00Z",
			nodes: map[string]W{"l1": {"Lección uno (regional)", "Lección 1", 0, "published", false, "District", 2, "translated", "Lección"}},
		},
		{
			name: "other organization", target: "/api/v1/curricula/other/resolved", id: "other", locale: "en",
			chain: []string{"Other"}, shape: "o1", count: 1, resolved: "2026-01-01T00:00:00Z",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			token := tokA
			if tc.id == "other" {
				token = tokB
			}
			rec := get(t, h, tc.target, token)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var doc resolvedCurriculumJSON
			decodeInto(t, rec.Body.Bytes(), &doc)
			d := doc.Data
			if d.ID != tc.id || d.Type != "resolved_curriculum" || d.Attributes.Variant != tc.variant ||
				d.Attributes.Locale != tc.locale || d.Attributes.ResolvedAt != tc.resolved {
				t.Errorf("data: id %q type %q attributes %+v", d.ID, d.Type, d.Attributes)
			}
			if want := tc.chain[len(tc.chain)-1]; d.Attributes.Name != want {
				t.Errorf("attributes.name %q, want %q", d.Attributes.Name, want)
			}
			roots := d.Relationships.ContentNodes.Data
			if got := shape(roots); got != tc.shape {
				t.Errorf("tree %q, want %q", got, tc.shape)
			}
			m := doc.Meta
			if !slices.Equal(m.VariantChain, tc.chain) || m.Locale != tc.locale || m.NodeCount != tc.count {
				t.Errorf("meta %+v, want chain %v locale %s node_count %d", m, tc.chain, tc.locale, tc.count)
			}
			all := flatten(roots, map[string]resolvedNodeJSON{})
			maxDepth := 0
			var check func(ns []resolvedNodeJSON, depth int)
			check = func(ns []resolvedNodeJSON, depth int) {
				for i, n := range ns {
					if n.Type != "resolved_content_node" || n.Attributes.Depth != depth || n.Attributes.Position != i {
						t.Errorf("%s: type %q depth %d position %d, want depth %d position %d", n.ID, n.Type, n.Attributes.Depth, n.Attributes.Position, depth, i)
					}
					if n.Children == nil {
						t.Errorf("%s: children is null, want a list", n.ID)
					}
					maxDepth = max(maxDepth, depth)
					check(n.Children, depth+1)
				}
			}
			check(roots, 0)
			if len(all) != m.NodeCount || maxDepth != m.MaxDepth {
				t.Errorf("tree has %d nodes, max depth %d; meta says %d, %d", len(all), maxDepth, m.NodeCount, m.MaxDepth)
			}
			for id, w := range tc.nodes {
				n, ok := all[id]
				if !ok {
					t.Errorf("%s: missing", id)
					continue
				}
				a := n.Attributes
				if a.Title != w.title || a.TypeDisplay != w.typeDisplay || a.Position != w.position || a.WorkflowStatus != w.status ||
					a.NodeType.DisplayName != w.displayName || a.TypeDisplay != a.NodeType.DisplayName+" "+a.OrdinalLabel {
					t.Errorf("%s: title %q type_display %q (display %q, ordinal %q) position %d workflow_status %q;\n want %q %q position %d %q display %q",
						id, a.Title, a.TypeDisplay, a.NodeType.DisplayName, a.OrdinalLabel, a.Position, a.WorkflowStatus,
						w.title, w.typeDisplay, w.position, w.status, w.displayName)
				}
				if im := a.InheritanceMetadata; im.IsInherited != w.inherited || im.SourceCurriculum != w.source || im.OverrideLevel != w.level {
					t.Errorf("%s: inheritance_metadata %+v, want inherited %v source %q level %d", id, im, w.inherited, w.source, w.level)
				}
				wantLocale := "en"
				if w.translation == "translated" {
					wantLocale = tc.locale
				}
				if tm := a.TranslationMetadata; tm.IsTranslated != (w.translation == "translated") || tm.TranslationStatus != w.translation || tm.SourceLocale != wantLocale {
					t.Errorf("%s: translation_metadata %+v, want status %q source_locale %q", id, tm, w.translation, wantLocale)
				}
				if a.NodeType.Icon == "" || a.NodeType.Name == "" {
					t.Errorf("%s: node_type %+v", id, a.NodeType)
				}
			}
			for id, want := range tc.attrs {
				if got := all[id].Attributes.Attributes; !reflect.DeepEqual(got, want) {
					t.Errorf("%s: attributes %v, want %v", id, got, want)
				}
			}
		})
	}
}

// TestWorkflowStatusOverride makes u2 a draft in the base: the base and
// Region serve it as a draft, District (which publishes it) as published.
func TestWorkflowStatusOverride(t *testing.T) {
	ds := tinyDataset(t)
	ds.Curricula[0].Nodes[1].WorkflowStatus = dataset.StatusDraft
	h := newHandler(t, ds, sandbox.Options{Limits: noLimits})
	for _, tc := range []struct {
		variant, want string
		level         int
	}{{"", "draft", 0}, {"Region", "draft", 0}, {"District", "published", 1}} {
		var doc resolvedCurriculumJSON
		decodeInto(t, get(t, h, "/api/v1/curricula/b1/resolved?variant="+tc.variant, tokA).Body.Bytes(), &doc)
		u2 := flatten(doc.Data.Relationships.ContentNodes.Data, map[string]resolvedNodeJSON{})["u2"]
		if u2.Attributes.WorkflowStatus != tc.want || u2.Attributes.InheritanceMetadata.OverrideLevel != tc.level {
			t.Errorf("variant %q: u2 workflow_status %q override_level %d, want %q %d", tc.variant, u2.Attributes.WorkflowStatus,
				u2.Attributes.InheritanceMetadata.OverrideLevel, tc.want, tc.level)
		}
		// The draft child stays a draft whatever its parent's status.
		if l3 := u2.Children[0]; l3.ID != "l3" || l3.Attributes.WorkflowStatus != "draft" {
			t.Errorf("variant %q: u2's child %+v", tc.variant, l3)
		}
	}
	// The node endpoint shows the base's version.
	if got := str(t, mustGet(t, h, "/api/v1/content_nodes/u2", tokA), "data", "attributes", "workflow_status"); got != "draft" {
		t.Errorf("/content_nodes/u2 workflow_status %q, want draft", got)
	}
}

// TestLocaleProgress checks /locales: translation_progress counts draft
// translations, published_progress does not; both round down.
func TestLocaleProgress(t *testing.T) {
	h := newTiny(t)
	type p struct{ translated, published int }
	tests := []struct {
		id    string
		token string
		want  map[string]p // code -> progress, in order en, es, ar
	}{
		// 7 nodes: es translates u1, l1, l2; ar has a draft of u1.
		{"b1", tokA, map[string]p{"en": {100, 100}, "es": {42, 42}, "ar": {14, 0}}},
		// 8 nodes: v1 translates its l1 and l4; the base's u1 and l2 count.
		{"v1", tokA, map[string]p{"en": {100, 100}, "es": {50, 50}, "ar": {12, 0}}},
		// 10 nodes: l1 is District's own content, untranslated.
		{"v2", tokA, map[string]p{"en": {100, 100}, "es": {40, 40}, "ar": {10, 0}}},
		{"other", tokB, map[string]p{"en": {100, 100}}},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			body := mustGet(t, h, "/api/v1/curricula/"+tc.id+"/locales", tc.token)
			list := arr(t, body, "data")
			if len(list) != len(tc.want) || num(t, body, "meta", "total_locales") != len(tc.want) {
				t.Fatalf("%d locales (meta %v), want %d", len(list), body["meta"], len(tc.want))
			}
			if str(t, body, "meta", "curriculum_id") != tc.id || str(t, body, "meta", "primary_locale") != "en" {
				t.Errorf("meta %v", body["meta"])
			}
			for _, r := range list {
				a := obj(t, r, "attributes")
				code := str(t, a, "code")
				w, ok := tc.want[code]
				if !ok {
					t.Errorf("unexpected locale %q", code)
					continue
				}
				if str(t, r, "id") != tc.id+":"+code || boolean(t, a, "is_primary") != (code == "en") {
					t.Errorf("%s: %v", code, r)
				}
				if got := (p{num(t, a, "translation_progress"), num(t, a, "published_progress")}); got != w {
					t.Errorf("%s: progress %+v, want %+v", code, got, w)
				}
			}
		})
	}
}

// TestResolvedContentNode checks /content_nodes/:id/resolved with and
// without variant and locale.
func TestResolvedContentNode(t *testing.T) {
	h := newTiny(t)
	tests := []struct {
		target     string
		token      string
		curriculum string
		chain      []string
		parent     string
		shape      string // the node and its subtree
		count      int
		maxDepth   int
		want       nodeWant
		locale     string
	}{
		{"/api/v1/content_nodes/l1/resolved", tokA, "b1", []string{"Base"}, "u1", "l1", 1, 1,
			nodeWant{"Lesson one", "Lesson 1", 0, "published", false, "Base", 0, "original", "Lesson"}, "en"},
		{"/api/v1/content_nodes/l1/resolved?variant=Region&locale=es", tokA, "v1", []string{"Base", "Region"}, "u1", "l1", 1, 1,
			nodeWant{"Lección uno (regional)", "Lección 1", 0, "published", false, "Region", 1, "translated", "Lección"}, "es"},
		{"/api/v1/content_nodes/l1/resolved?variant=District&locale=es", tokA, "v2", []string{"Base", "Region", "District"}, "u1", "l1", 1, 1,
			nodeWant{"Lección uno (regional)", "Lección 1", 0, "published", false, "District", 2, "translated", "Lección"}, "es"},
		{"/api/v1/content_nodes/u1/resolved?variant=District&locale=es", tokA, "v2", []string{"Base", "Region", "District"}, "", "u1(l1 l4 l2(a1))", 5, 2,
			nodeWant{"Unidad uno", "Unidad 2", 1, "published", true, "Base", 0, "translated", "Unidad"}, "es"},
		{"/api/v1/content_nodes/u1/resolved?locale=ar", tokA, "b1", []string{"Base"}, "", "u1(l1 l2(a1))", 4, 2,
			nodeWant{"Unit one", "Unit 1", 0, "published", false, "Base", 0, "fallback", "Unit"}, "ar"},
		// Without a variant, the curriculum that authored the node.
		{"/api/v1/content_nodes/l4/resolved", tokA, "v1", []string{"Base", "Region"}, "u1", "l4", 1, 1,
			nodeWant{"Regional lesson", "Lesson 2", 1, "published", false, "Region", 0, "original", "Lesson"}, "en"},
		{"/api/v1/content_nodes/l4/resolved?variant=District&locale=es", tokA, "v2", []string{"Base", "Region", "District"}, "u1", "l4", 1, 1,
			nodeWant{"Lección regional", "Lección 2", 1, "published", true, "Region", 0, "translated", "Lección"}, "es"},
		{"/api/v1/content_nodes/d0/resolved", tokA, "v2", []string{"Base", "Region", "District"}, "", "d0(d1)", 2, 1,
			nodeWant{"Welcome", "Unit 1", 0, "published", false, "District", 0, "original", "Unit"}, "en"},
		{"/api/v1/content_nodes/a1/resolved?variant=Region", tokA, "v1", []string{"Base", "Region"}, "l2", "a1", 1, 2,
			nodeWant{"Activity", "Activity 1", 0, "published", true, "Base", 0, "original", "Activity"}, "en"},
		{"/api/v1/content_nodes/o1/resolved?locale=en", tokB, "other", []string{"Other"}, "", "o1", 1, 0,
			nodeWant{"Other unit", "Unit 1", 0, "published", false, "Other", 0, "original", "Unit"}, "en"},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			rec := get(t, h, tc.target, tc.token)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var doc resolvedNodeDocJSON
			decodeInto(t, rec.Body.Bytes(), &doc)
			n := doc.Data
			if got := shape([]resolvedNodeJSON{n}); got != tc.shape {
				t.Errorf("subtree %q, want %q", got, tc.shape)
			}
			if n.Type != "resolved_content_node" {
				t.Errorf("type %q", n.Type)
			}
			if c := n.Relationships["curriculum"].Data; c == nil || *c != (refJSON{tc.curriculum, "curriculum"}) {
				t.Errorf("curriculum %+v, want %s", c, tc.curriculum)
			}
			p := n.Relationships["parent"].Data
			switch {
			case tc.parent == "" && p != nil:
				t.Errorf("parent %+v, want null", p)
			case tc.parent != "" && (p == nil || *p != refJSON{tc.parent, "resolved_content_node"}):
				t.Errorf("parent %+v, want %s", p, tc.parent)
			}
			if !slices.Equal(doc.Meta.VariantChain, tc.chain) || doc.Meta.NodeCount != tc.count || doc.Meta.MaxDepth != tc.maxDepth || doc.Meta.Locale != tc.locale {
				t.Errorf("meta %+v, want chain %v node_count %d max_depth %d locale %s", doc.Meta, tc.chain, tc.count, tc.maxDepth, tc.locale)
			}
			a, w := n.Attributes, tc.want
			if a.Title != w.title || a.TypeDisplay != w.typeDisplay || a.Position != w.position || a.WorkflowStatus != w.status || a.NodeType.DisplayName != w.displayName {
				t.Errorf("attributes %+v, want %+v", a, w)
			}
			if im := a.InheritanceMetadata; im.IsInherited != w.inherited || im.SourceCurriculum != w.source || im.OverrideLevel != w.level {
				t.Errorf("inheritance_metadata %+v, want %+v", im, w)
			}
			if tm := a.TranslationMetadata; tm.TranslationStatus != w.translation || tm.IsTranslated != (w.translation == "translated") {
				t.Errorf("translation_metadata %+v, want %s", tm, w.translation)
			}
		})
	}
}
