package dataset

import (
	"encoding/json"
	"strings"
	"testing"
)

func tiny(t *testing.T) *Index {
	t.Helper()
	ds, err := Open("testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := NewIndex(ds)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// shape renders a tree as "id:position:ordinal_label" lines, indented by depth.
func shape(t *Tree) string {
	var b strings.Builder
	t.Walk(func(n *ResolvedNode) {
		b.WriteString(strings.Repeat("  ", n.Depth) + n.ID + ":" + n.TypeDisplay + "\n")
	})
	return b.String()
}

func TestResolveStructure(t *testing.T) {
	ix := tiny(t)
	tests := []struct {
		id        string
		want      string
		chain     string
		nodeCount int
		maxDepth  int
	}{
		{
			id: "b1", chain: "Base", nodeCount: 7, maxDepth: 2,
			want: "u1:Unit 1\n  l1:Lesson 1\n  l2:Lesson 2\n    a1:Activity 1\nu2:Unit 2\n  l3:Lesson 1\nx1:Appendix A\n",
		},
		{
			id: "v1", chain: "Base>Region", nodeCount: 8, maxDepth: 2,
			want: "u1:Unit 1\n  l1:Lesson 1\n  l4:Lesson 2\n  l2:Lesson 3\n    a1:Activity 1\nu2:Unit 2\n  l3:Lesson 1\nx1:Appendix A\n",
		},
		{
			id: "v2", chain: "Base>Region>District", nodeCount: 10, maxDepth: 2,
			want: "d0:Unit 1\n  d1:Lesson 1\nu1:Unit 2\n  l1:Lesson 1\n  l4:Lesson 2\n  l2:Lesson 3\n    a1:Activity 1\nu2:Unit 3\n  l3:Lesson 1\nx1:Appendix A\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			tr, err := ix.Resolve(tt.id, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := shape(tr); got != tt.want {
				t.Errorf("tree:\n%s\nwant:\n%s", got, tt.want)
			}
			var names []string
			for _, c := range tr.Chain {
				names = append(names, c.Name)
			}
			if got := strings.Join(names, ">"); got != tt.chain {
				t.Errorf("chain = %s, want %s", got, tt.chain)
			}
			if tr.NodeCount != tt.nodeCount || tr.MaxDepth != tt.maxDepth {
				t.Errorf("NodeCount, MaxDepth = %d, %d; want %d, %d", tr.NodeCount, tr.MaxDepth, tt.nodeCount, tt.maxDepth)
			}
			if tr.Locale != "en" || tr.PrimaryLocale != "en" {
				t.Errorf("locale = %q/%q, want en/en", tr.Locale, tr.PrimaryLocale)
			}
		})
	}
}

func TestResolveInheritance(t *testing.T) {
	ix := tiny(t)
	tests := []struct {
		curriculum, node string
		want             Inheritance
		title            string
		status           string
	}{
		{"b1", "l1", Inheritance{false, "Base", 0}, "Lesson one", "published"},
		{"v1", "u1", Inheritance{true, "Base", 0}, "Unit one", "published"},
		{"v1", "l1", Inheritance{false, "Region", 1}, "Lesson one (regional)", "published"},
		{"v1", "l4", Inheritance{false, "Region", 0}, "Regional lesson", "published"},
		{"v2", "l4", Inheritance{true, "Region", 0}, "Regional lesson", "published"},
		{"v2", "l1", Inheritance{false, "District", 2}, "Lesson one (regional)", "published"},
		{"v2", "d0", Inheritance{false, "District", 0}, "Welcome", "published"},
		{"v1", "l3", Inheritance{true, "Base", 0}, "Draft lesson", "draft"},
		{"v2", "u2", Inheritance{false, "District", 1}, "Unit two", "published"},
		{"v2", "l3", Inheritance{true, "Base", 0}, "Draft lesson", "draft"},
	}
	for _, tt := range tests {
		t.Run(tt.curriculum+"/"+tt.node, func(t *testing.T) {
			tr, err := ix.Resolve(tt.curriculum, "")
			if err != nil {
				t.Fatal(err)
			}
			n := tr.Node(tt.node)
			if n == nil {
				t.Fatalf("node %s missing", tt.node)
			}
			if n.Inheritance != tt.want {
				t.Errorf("inheritance = %+v, want %+v", n.Inheritance, tt.want)
			}
			if n.Title != tt.title || n.WorkflowStatus != tt.status {
				t.Errorf("title, status = %q, %q; want %q, %q", n.Title, n.WorkflowStatus, tt.title, tt.status)
			}
		})
	}
}

func TestResolveAttributeMerge(t *testing.T) {
	ix := tiny(t)
	attrs := func(curriculum string) string {
		tr, err := ix.Resolve(curriculum, "")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(tr.Node("l1").Attributes)
		return string(b)
	}
	for _, tt := range []struct{ curriculum, want string }{
		{"b1", `{"description":"L1","estimated_minutes":40}`},
		{"v1", `{"description":"L1","estimated_minutes":50,"standards":["R.1"]}`},
		{"v2", `{"description":"L1","estimated_minutes":50,"teacher_notes":"Local."}`},
	} {
		if got := attrs(tt.curriculum); got != tt.want {
			t.Errorf("%s: attributes = %s, want %s", tt.curriculum, got, tt.want)
		}
	}
	// Resolving never changes the dataset.
	if got := attrs("b1"); got != `{"description":"L1","estimated_minutes":40}` {
		t.Errorf("base changed after resolving variants: %s", got)
	}
}

func TestResolveTranslation(t *testing.T) {
	ix := tiny(t)
	tests := []struct {
		curriculum, locale, node string
		title                    string
		info                     TranslationInfo
		typeDisplay              string
	}{
		{"b1", "en", "u1", "Unit one", TranslationInfo{false, TranslationOriginal, "en"}, "Unit 1"},
		{"b1", "es", "u1", "Unidad uno", TranslationInfo{true, TranslationTranslated, "es"}, "Unidad 1"},
		{"b1", "es", "u2", "Unit two", TranslationInfo{false, TranslationFallback, "en"}, "Unidad 2"},
		{"b1", "es", "a1", "Activity", TranslationInfo{false, TranslationFallback, "en"}, "Activity 1"},
		// The variant's own translation of its override wins.
		{"v1", "es", "l1", "Lección uno (regional)", TranslationInfo{true, TranslationTranslated, "es"}, "Lección 1"},
		{"v1", "es", "l4", "Lección regional", TranslationInfo{true, TranslationTranslated, "es"}, "Lección 2"},
		// Inherited, untouched nodes keep the base's translation.
		{"v2", "es", "l2", "Lección dos", TranslationInfo{true, TranslationTranslated, "es"}, "Lección 3"},
		// District overrode attributes of l1 that no translation covers:
		// Region's translation of the title still holds.
		{"v2", "es", "l1", "Lección uno (regional)", TranslationInfo{true, TranslationTranslated, "es"}, "Lección 1"},
		// A draft translation is not served.
		{"b1", "ar", "u1", "Unit one", TranslationInfo{false, TranslationFallback, "en"}, "Unit 1"},
	}
	for _, tt := range tests {
		t.Run(tt.curriculum+"/"+tt.locale+"/"+tt.node, func(t *testing.T) {
			tr, err := ix.Resolve(tt.curriculum, tt.locale)
			if err != nil {
				t.Fatal(err)
			}
			n := tr.Node(tt.node)
			if n.Title != tt.title || n.Translation != tt.info || n.TypeDisplay != tt.typeDisplay {
				t.Errorf("got %q %+v %q, want %q %+v %q", n.Title, n.Translation, n.TypeDisplay, tt.title, tt.info, tt.typeDisplay)
			}
		})
	}
	tr, _ := ix.Resolve("b1", "es")
	if got := string(tr.Node("u1").Attributes["description"]); got != `"Sobre *uno*."` {
		t.Errorf("translated description = %s", got)
	}
	if got := strings.Join(strings.Fields(string(tr.Node("u1").Attributes["extra"])), ""); got != `{"k":[1,2]}` {
		t.Errorf("untranslated member = %s, want it kept", got)
	}
}

func TestProgress(t *testing.T) {
	ix := tiny(t)
	tests := []struct {
		id   string
		want string
	}{
		// b1 has 7 nodes: es translates 3 (42%); ar has 1 draft (14% / 0%).
		{"b1", "en:true:100:100 es:false:42:42 ar:false:14:0"},
		// v1 has 8 nodes: es has u1, l2 from the base, l1 and l4 from v1.
		{"v1", "en:true:100:100 es:false:50:50 ar:false:12:0"},
		// v2 has 10 nodes and keeps the 4 translations of v1.
		{"v2", "en:true:100:100 es:false:40:40 ar:false:10:0"},
	}
	for _, tt := range tests {
		ps, err := ix.Progress(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, p := range ps {
			parts = append(parts, strings.Join([]string{p.Locale.Code, boolStr(p.IsPrimary), itoa(p.Translated), itoa(p.Published)}, ":"))
		}
		if got := strings.Join(parts, " "); got != tt.want {
			t.Errorf("%s: progress = %s, want %s", tt.id, got, tt.want)
		}
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestIndexLookups(t *testing.T) {
	ix := tiny(t)
	if got := ix.Descendants("b1"); strings.Join(got, ",") != "v1,v2" {
		t.Errorf("Descendants(b1) = %v", got)
	}
	if got := ix.Children("b1"); strings.Join(got, ",") != "v1" {
		t.Errorf("Children(b1) = %v", got)
	}
	if v := ix.VariantByName("b1", "District"); v == nil || v.ID != "v2" {
		t.Errorf("VariantByName(b1, District) = %v", v)
	}
	if v := ix.VariantByName("v2", "Region"); v != nil {
		t.Errorf("VariantByName looked upwards: %v", v.ID)
	}
	if got := ix.NodeOwner("l4"); got != "v1" {
		t.Errorf("NodeOwner(l4) = %q", got)
	}
	if got := ix.OrganizationOf("v2"); got != "org-a" {
		t.Errorf("OrganizationOf(v2) = %q", got)
	}
	if got := ix.PrimaryLocale("v2"); got != "en" {
		t.Errorf("PrimaryLocale(v2) = %q", got)
	}
	if !ix.HasLocale("v2", "ar") || ix.HasLocale("v2", "fr") {
		t.Error("HasLocale wrong for v2")
	}
	if ix.NodeCount("v2") != 10 {
		t.Errorf("NodeCount(v2) = %d", ix.NodeCount("v2"))
	}
}

func TestSampleDataset(t *testing.T) {
	ds, err := Sample()
	if err != nil {
		t.Fatal(err)
	}
	ix, err := NewIndex(ds)
	if err != nil {
		t.Fatal(err)
	}
	shapes := map[string]bool{}
	var rtl, cjk, draft, nested bool
	bases := 0
	for _, c := range ds.Curricula {
		shapes[shapeOr(c.Shape)] = true
		if len(ix.Chain(c.ID)) >= 3 {
			nested = true
		}
		if c.Parent == "" {
			bases++
		}
		for _, l := range ix.Locales(c.ID) {
			rtl = rtl || l.Code == "ar" || l.Code == "he"
			cjk = cjk || l.Code == "ja" || l.Code == "zh" || l.Code == "ko"
		}
		for _, l := range ix.Locales(c.ID) {
			tr, err := ix.Resolve(c.ID, l.Code)
			if err != nil {
				t.Fatalf("resolve %s/%s: %v", c.ID, l.Code, err)
			}
			tr.Walk(func(n *ResolvedNode) { draft = draft || n.WorkflowStatus == StatusDraft })
		}
	}
	if !shapes[ShapeFull] || !shapes[ShapeAlternate] || !rtl || !cjk || !draft || !nested || bases < 2 {
		t.Errorf("sample lacks coverage: shapes=%v rtl=%v cjk=%v draft=%v nested=%v bases=%d", shapes, rtl, cjk, draft, nested, bases)
	}
	// Some translation is partial, so clients meet fallback content.
	partial := false
	for _, c := range ds.Curricula {
		ps, _ := ix.Progress(c.ID)
		for _, p := range ps {
			partial = partial || (p.Published > 0 && p.Published < 100)
		}
	}
	if !partial {
		t.Error("sample has no partially translated locale")
	}
}

func shapeOr(s string) string {
	if s == "" {
		return ShapeFull
	}
	return s
}

// TestStaleTranslations checks that a translation is used only while the
// text it translates is unchanged by later overrides.
func TestStaleTranslations(t *testing.T) {
	tests := []struct {
		name     string
		override Override
		title    string
		status   string
		desc     string
	}{
		{"no change", Override{Node: "zz"}, "Unidad uno", TranslationTranslated, `"Sobre *uno*."`},
		{"untranslated member changed", Override{Node: "u1", Attributes: map[string]json.RawMessage{"estimated_minutes": json.RawMessage("30")}},
			"Unidad uno", TranslationTranslated, `"Sobre *uno*."`},
		{"workflow status changed", Override{Node: "u1", WorkflowStatus: StatusInReview}, "Unidad uno", TranslationTranslated, `"Sobre *uno*."`},
		{"title changed", Override{Node: "u1", Title: "Unit one, revised"}, "Unit one, revised", TranslationFallback, `"About *one*."`},
		{"translated member changed", Override{Node: "u1", Attributes: map[string]json.RawMessage{"description": json.RawMessage(`"New."`)}},
			"Unit one", TranslationFallback, `"New."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := broken(t, func(ds *Dataset) {
				if tt.override.Node != "zz" {
					c := curriculum(ds, "v2")
					c.Overrides = append(c.Overrides, tt.override)
				}
			})
			ix, err := NewIndex(ds)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := ix.Resolve("v2", "es")
			if err != nil {
				t.Fatal(err)
			}
			n := tr.Node("u1")
			if n.Title != tt.title || n.Translation.Status != tt.status || string(n.Attributes["description"]) != tt.desc {
				t.Errorf("got %q %s %s, want %q %s %s", n.Title, n.Translation.Status, n.Attributes["description"], tt.title, tt.status, tt.desc)
			}
		})
	}
}
