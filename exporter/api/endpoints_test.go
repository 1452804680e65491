package api_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// Every method is run against the sample and the tiny dataset, which between
// them serve both curriculum record shapes: curriculum_201 (sample) and v1
// (tiny) use the alternate one.

func TestMe(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ds    func(testing.TB) *dataset.Dataset
		token string
		want  api.User
	}{
		{"sample publisher", sampleDataset, sampleToken, api.User{
			ID: "user-dokafor", Email: "dana.okafor@riverbend.example.org", Name: "Dana Okafor",
			OrganizationID: "org-riverbend", OrganizationName: "Riverbend Unified Learning Collaborative",
		}},
		{"sample other organization", sampleDataset, northwindToken, api.User{
			ID: "user-slaurent", Email: "sophie.laurent@northwind.example.com", Name: "Sophie Laurent",
			OrganizationID: "org-northwind", OrganizationName: "Northwind Academy",
		}},
		{"tiny", tinyDataset, tokA, api.User{ID: "u-a", Email: "a@example.org", Name: "Ada", OrganizationID: "org-a", OrganizationName: "Org A"}},
		{"tiny other organization", tinyDataset, tokB, api.User{ID: "u-b", Email: "b@example.org", Name: "Bo", OrganizationID: "org-b", OrganizationName: "Org B"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := setup(t, tc.ds(t), tc.token)
			u, resp, err := c.Me(ctx(t))
			if err != nil {
				t.Fatalf("Me: %v", err)
			}
			if *u != tc.want {
				t.Errorf("Me = %+v, want %+v", *u, tc.want)
			}
			if resp.StatusCode != 200 || resp.ETag == "" || resp.NotModified || len(resp.Body) == 0 || resp.Header.Get("Content-Type") == "" {
				t.Errorf("Response = %d %q NotModified=%v, %d bytes", resp.StatusCode, resp.ETag, resp.NotModified, len(resp.Body))
			}
			r := s.last(t)
			if r.Method != "GET" || r.URI != prefix+"/api/v1/me" {
				t.Errorf("request = %s %s, want GET %s/api/v1/me", r.Method, r.URI, prefix)
			}
			if got := r.Header.Get("Authorization"); got != "Bearer "+tc.token {
				t.Errorf("Authorization = %q", got)
			}
			if got := r.Header.Get("Accept"); got != "application/json" {
				t.Errorf("Accept = %q", got)
			}
			if got := r.Header.Get("User-Agent"); got != api.DefaultUserAgent {
				t.Errorf("User-Agent = %q", got)
			}
		})
	}
}

func ids[T any](list []T, id func(T) string) []string {
	out := []string{}
	for _, x := range list {
		out = append(out, id(x))
	}
	return out
}

func curriculumIDs(cs []api.Curriculum) []string {
	return ids(cs, func(c api.Curriculum) string { return c.ID })
}

func nodeIDs(ns []api.Node) []string { return ids(ns, func(n api.Node) string { return n.ID }) }

func TestListCurricula(t *testing.T) {
	sample := []string{"101", "111", "112", "113", "curriculum_201", "curriculum_211", "curriculum_212"}
	for _, tc := range []struct {
		name      string
		ds        func(testing.TB) *dataset.Dataset
		token     string
		opts      api.ListOptions
		wantQuery string
		want      []string
		total     int
		page, per int
	}{
		{"sample", sampleDataset, sampleToken, api.ListOptions{}, "", sample, 7, 1, 20},
		{"root only", sampleDataset, sampleToken, api.ListOptions{RootOnly: true}, "root_only=true", []string{"101", "curriculum_201"}, 2, 1, 20},
		{"published", sampleDataset, sampleToken, api.ListOptions{Status: "published"}, "status=published", sample, 7, 1, 20},
		{"draft", sampleDataset, sampleToken, api.ListOptions{Status: "draft"}, "status=draft", []string{}, 0, 1, 20},
		{"second page", sampleDataset, sampleToken, api.ListOptions{Page: 2, PerPage: 3}, "page=2&per_page=3", []string{"113", "curriculum_201", "curriculum_211"}, 7, 2, 3},
		{"past the end", sampleDataset, sampleToken, api.ListOptions{Page: 9, PerPage: 3}, "page=9&per_page=3", []string{}, 7, 9, 3},
		{"all options", sampleDataset, sampleToken, api.ListOptions{Page: 1, PerPage: 100, RootOnly: true, Status: "published"},
			"page=1&per_page=100&root_only=true&status=published", []string{"101", "curriculum_201"}, 2, 1, 100},
		{"other organization", sampleDataset, northwindToken, api.ListOptions{}, "", []string{"301"}, 1, 1, 20},
		{"tiny", tinyDataset, tokA, api.ListOptions{}, "", []string{"b1", "v1", "v2"}, 3, 1, 20},
		{"tiny root only", tinyDataset, tokA, api.ListOptions{RootOnly: true}, "root_only=true", []string{"b1"}, 1, 1, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := setup(t, tc.ds(t), tc.token)
			p, _, err := c.ListCurricula(ctx(t), tc.opts)
			if err != nil {
				t.Fatalf("ListCurricula: %v", err)
			}
			if got := curriculumIDs(p.Curricula); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ids = %q, want %q", got, tc.want)
			}
			if p.TotalCount != tc.total || p.Page != tc.page || p.PerPage != tc.per {
				t.Errorf("total, page, per page = %d, %d, %d; want %d, %d, %d", p.TotalCount, p.Page, p.PerPage, tc.total, tc.page, tc.per)
			}
			wantURI := prefix + "/api/v1/curricula"
			if tc.wantQuery != "" {
				wantURI += "?" + tc.wantQuery
			}
			if got := s.last(t).URI; got != wantURI {
				t.Errorf("request URI = %q, want %q", got, wantURI)
			}
		})
	}
}

// TestCurriculumRecordShapes checks every field of both shapes as the list
// serves them.
func TestCurriculumRecordShapes(t *testing.T) {
	day := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	c, _ := setup(t, tinyDataset(t), tokA)
	p, _, err := c.ListCurricula(ctx(t), api.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []api.Curriculum{
		{ID: "b1", Name: "Base", Description: "The base.", StructureName: "Units", NodeCount: 7,
			CreatedAt: day("2026-01-01T00:00:00Z"), UpdatedAt: day("2026-02-01T00:00:00Z"), Shape: api.ShapeFull},
		{ID: "v1", Name: "Region", Status: "published", Shape: api.ShapeAlternate},
		{ID: "v2", Name: "District", NodeCount: 10, IsVariant: true, ParentID: "v1",
			CreatedAt: day("2026-01-03T00:00:00Z"), UpdatedAt: day("2026-01-04T00:00:00Z"), Shape: api.ShapeFull},
	}
	if !reflect.DeepEqual(p.Curricula, want) {
		t.Errorf("curricula =\n%+v\nwant\n%+v", p.Curricula, want)
	}

	c, _ = setup(t, sampleDataset(t), sampleToken)
	p, _, err = c.ListCurricula(ctx(t), api.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cur := range p.Curricula {
		alt := strings.HasPrefix(cur.ID, "curriculum_")
		if got := cur.Shape == api.ShapeAlternate; got != alt {
			t.Errorf("%s: shape %q", cur.ID, cur.Shape)
		}
		if cur.Name == "" || cur.Description == "" {
			t.Errorf("%s: no name or description: %+v", cur.ID, cur)
		}
		if alt && (cur.Status != "published" || !cur.CreatedAt.IsZero() || cur.NodeCount != 0) {
			t.Errorf("%s: alternate record %+v", cur.ID, cur)
		}
		if !alt && (cur.Status != "" || cur.CreatedAt.IsZero() || cur.NodeCount == 0 || cur.IsVariant != (cur.ParentID != "")) {
			t.Errorf("%s: full record %+v", cur.ID, cur)
		}
	}
}

func TestCurriculum(t *testing.T) {
	for _, tc := range []struct {
		name, id     string
		ds           func(testing.TB) *dataset.Dataset
		token        string
		shape        string
		curName      string
		status       string
		roots        []string
		rootCount    int
		total        int
		firstRootTit string
	}{
		{"sample full", "101", sampleDataset, sampleToken, api.ShapeFull, "Algebra 1", "",
			[]string{"alg-u1", "alg-u2", "alg-u3", "alg-u4", "alg-app-a"}, 5, 29, "Foundations of Algebra"},
		{"sample alternate", "curriculum_201", sampleDataset, sampleToken, api.ShapeAlternate, "Introduction to Computer Science", "published",
			[]string{"cs-m1", "cs-m2", "cs-m3", "cs-m4"}, 4, 23, "Computational Thinking"},
		{"tiny base", "b1", tinyDataset, tokA, api.ShapeFull, "Base", "", []string{"u1", "u2", "x1"}, 3, 7, "Unit one"},
		{"tiny alternate variant", "v1", tinyDataset, tokA, api.ShapeAlternate, "Region", "published", []string{"u1", "u2", "x1"}, 3, 8, "Unit one"},
		{"tiny nested variant", "v2", tinyDataset, tokA, api.ShapeFull, "District", "", []string{"d0", "u1", "u2", "x1"}, 4, 10, "Welcome"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := setup(t, tc.ds(t), tc.token)
			d, _, err := c.Curriculum(ctx(t), tc.id)
			if err != nil {
				t.Fatalf("Curriculum(%q): %v", tc.id, err)
			}
			cur := d.Curriculum
			if cur.ID != tc.id || cur.Shape != tc.shape || cur.Name != tc.curName || cur.Status != tc.status {
				t.Errorf("curriculum = %+v", cur)
			}
			if got := nodeIDs(d.RootNodes); !reflect.DeepEqual(got, tc.roots) {
				t.Errorf("roots = %q, want %q", got, tc.roots)
			}
			if d.RootCount != tc.rootCount || d.TotalNodeCount != tc.total {
				t.Errorf("root count, total = %d, %d; want %d, %d", d.RootCount, d.TotalNodeCount, tc.rootCount, tc.total)
			}
			for i, n := range d.RootNodes {
				if n.Depth != 0 || n.Position != i || n.Title == "" || n.NodeType.Name == "" || n.TypeDisplay == "" || n.WorkflowStatus == "" {
					t.Errorf("root %d = %+v", i, n)
				}
			}
			if d.RootNodes[0].Title != tc.firstRootTit {
				t.Errorf("first root title = %q, want %q", d.RootNodes[0].Title, tc.firstRootTit)
			}
			if got, want := s.last(t).URI, prefix+"/api/v1/curricula/"+tc.id; got != want {
				t.Errorf("URI = %q, want %q", got, want)
			}
		})
	}
}

func TestCurriculumKeepsFreeFormAttributes(t *testing.T) {
	c, _ := setup(t, sampleDataset(t), sampleToken)
	d, _, err := c.Curriculum(ctx(t), "101")
	if err != nil {
		t.Fatal(err)
	}
	u1 := d.RootNodes[0]
	var objectives []string
	if err := json.Unmarshal(u1.Attributes["learning_objectives"], &objectives); err != nil || len(objectives) != 3 {
		t.Errorf("learning_objectives = %s (%v)", u1.Attributes["learning_objectives"], err)
	}
	if got := string(u1.Attributes["estimated_minutes"]); got != "450" {
		t.Errorf("estimated_minutes = %s, want 450", got)
	}
	if u1.NodeType != (api.NodeType{Name: "unit", DisplayName: "Unit", Icon: "book"}) || u1.TypeDisplay != "Unit 1" || u1.OrdinalLabel != "1" || !u1.HasChildren {
		t.Errorf("u1 = %+v", u1)
	}
}

func TestVariants(t *testing.T) {
	for _, tc := range []struct {
		name, id string
		ds       func(testing.TB) *dataset.Dataset
		token    string
		want     []api.Variant // without descriptions
		curName  string
	}{
		{"sample", "101", sampleDataset, sampleToken, []api.Variant{
			{ID: "111", Name: "Texas", ParentID: "101", Depth: 1, NodeCount: 30, OverrideCount: 8, AddedCount: 1},
			{ID: "112", Name: "Houston ISD", ParentID: "111", Depth: 2, NodeCount: 32, OverrideCount: 2, AddedCount: 2},
			{ID: "113", Name: "California", ParentID: "101", Depth: 1, NodeCount: 30, OverrideCount: 2, AddedCount: 1},
		}, "Algebra 1"},
		{"sample alternate", "curriculum_201", sampleDataset, sampleToken, []api.Variant{
			{ID: "curriculum_211", Name: "AP Computer Science Principles", ParentID: "curriculum_201", Depth: 1, NodeCount: 24, OverrideCount: 7, AddedCount: 1},
			{ID: "curriculum_212", Name: "Summer Intensive", ParentID: "curriculum_211", Depth: 2, NodeCount: 25, OverrideCount: 6, AddedCount: 1},
		}, "Introduction to Computer Science"},
		{"tiny", "b1", tinyDataset, tokA, []api.Variant{
			{ID: "v1", Name: "Region", ParentID: "b1", Depth: 1, NodeCount: 8, OverrideCount: 1, AddedCount: 1},
			{ID: "v2", Name: "District", ParentID: "v1", Depth: 2, NodeCount: 10, OverrideCount: 2, AddedCount: 2},
		}, "Base"},
		{"tiny from a variant", "v1", tinyDataset, tokA, []api.Variant{
			{ID: "v2", Name: "District", ParentID: "v1", Depth: 1, NodeCount: 10, OverrideCount: 2, AddedCount: 2},
		}, "Region"},
		{"tiny none", "v2", tinyDataset, tokA, nil, "District"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := setup(t, tc.ds(t), tc.token)
			l, _, err := c.Variants(ctx(t), tc.id)
			if err != nil {
				t.Fatalf("Variants(%q): %v", tc.id, err)
			}
			got := l.Variants
			for i := range got {
				got[i].Description = ""
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("variants =\n%+v\nwant\n%+v", got, tc.want)
			}
			if l.TotalCount != len(tc.want) || l.CurriculumID != tc.id || l.CurriculumName != tc.curName {
				t.Errorf("meta = %d %q %q", l.TotalCount, l.CurriculumID, l.CurriculumName)
			}
		})
	}
}

func TestLocales(t *testing.T) {
	for _, tc := range []struct {
		name, id string
		ds       func(testing.TB) *dataset.Dataset
		token    string
		want     []api.Locale
	}{
		{"sample", "101", sampleDataset, sampleToken, []api.Locale{
			{Code: "en", Name: "English", IsPrimary: true, TranslationProgress: 100, PublishedProgress: 100},
			{Code: "es", Name: "Español", TranslationProgress: 89, PublishedProgress: 86},
			{Code: "ar", Name: "العربية", TranslationProgress: 48, PublishedProgress: 44},
			{Code: "ja", Name: "日本語", TranslationProgress: 34, PublishedProgress: 31},
		}},
		{"tiny", "b1", tinyDataset, tokA, []api.Locale{
			{Code: "en", Name: "English", IsPrimary: true, TranslationProgress: 100, PublishedProgress: 100},
			{Code: "es", Name: "Español", TranslationProgress: 42, PublishedProgress: 42},
			{Code: "ar", Name: "العربية", TranslationProgress: 14, PublishedProgress: 0},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := setup(t, tc.ds(t), tc.token)
			l, _, err := c.Locales(ctx(t), tc.id)
			if err != nil {
				t.Fatalf("Locales(%q): %v", tc.id, err)
			}
			if !reflect.DeepEqual(l.Locales, tc.want) {
				t.Errorf("locales =\n%+v\nwant\n%+v", l.Locales, tc.want)
			}
			if l.PrimaryLocale != "en" || l.TotalLocales != len(tc.want) || l.CurriculumID != tc.id || l.CurriculumName == "" {
				t.Errorf("meta = %q %d %q %q", l.PrimaryLocale, l.TotalLocales, l.CurriculumID, l.CurriculumName)
			}
		})
	}
}

// outline writes a tree as "a(b c(d)) e".
func outline(ns []api.ResolvedNode) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = n.ID
		if len(n.Children) > 0 {
			parts[i] += "(" + outline(n.Children) + ")"
		}
	}
	return strings.Join(parts, " ")
}

// find returns the node with id in a tree.
func find(ns []api.ResolvedNode, id string) *api.ResolvedNode {
	for i := range ns {
		if ns[i].ID == id {
			return &ns[i]
		}
		if n := find(ns[i].Children, id); n != nil {
			return n
		}
	}
	return nil
}

// stats counts a tree's nodes and finds its greatest depth, checking that
// depths follow the nesting.
func stats(t *testing.T, ns []api.ResolvedNode, depth int) (count, deepest int) {
	for i, n := range ns {
		if n.Depth != depth || n.Position != i {
			t.Errorf("node %s: depth %d position %d, want %d %d", n.ID, n.Depth, n.Position, depth, i)
		}
		c, d := stats(t, n.Children, depth+1)
		count += 1 + c
		deepest = max(deepest, depth, d)
	}
	return count, deepest
}

func TestResolved(t *testing.T) {
	for _, tc := range []struct {
		name, id  string
		ds        func(testing.TB) *dataset.Dataset
		token     string
		opts      api.ResolveOptions
		wantQuery string
		wantID    string
		wantName  string
		locale    string
		chain     []string
		outline   string // "" to skip
		count     int
	}{
		{"sample base", "101", sampleDataset, sampleToken, api.ResolveOptions{}, "", "101", "Algebra 1", "en", []string{"Algebra 1"}, "", 29},
		{"sample nested variant in Spanish", "101", sampleDataset, sampleToken, api.ResolveOptions{Variant: "Houston ISD", Locale: "es"},
			"locale=es&variant=Houston+ISD", "112", "Houston ISD", "es", []string{"Algebra 1", "Texas", "Houston ISD"}, "", 32},
		{"sample alternate shape in Japanese", "curriculum_201", sampleDataset, sampleToken, api.ResolveOptions{Variant: "Summer Intensive", Locale: "ja"},
			"locale=ja&variant=Summer+Intensive", "curriculum_212", "Summer Intensive", "ja",
			[]string{"Introduction to Computer Science", "AP Computer Science Principles", "Summer Intensive"}, "", 25},
		{"tiny nested variant", "b1", tinyDataset, tokA, api.ResolveOptions{Variant: "District", Locale: "es"},
			"locale=es&variant=District", "v2", "District", "es", []string{"Base", "Region", "District"}, "d0(d1) u1(l1 l4 l2(a1)) u2(l3) x1", 10},
		{"tiny alternate shape", "v1", tinyDataset, tokA, api.ResolveOptions{Locale: "ar"},
			"locale=ar", "v1", "Region", "ar", []string{"Base", "Region"}, "u1(l1 l4 l2(a1)) u2(l3) x1", 8},
		{"tiny base", "b1", tinyDataset, tokA, api.ResolveOptions{}, "", "b1", "Base", "en", []string{"Base"}, "u1(l1 l2(a1)) u2(l3) x1", 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := setup(t, tc.ds(t), tc.token)
			r, _, err := c.Resolved(ctx(t), tc.id, tc.opts)
			if err != nil {
				t.Fatalf("Resolved: %v", err)
			}
			wantURI := prefix + "/api/v1/curricula/" + tc.id + "/resolved"
			if tc.wantQuery != "" {
				wantURI += "?" + tc.wantQuery
			}
			if got := s.last(t).URI; got != wantURI {
				t.Errorf("URI = %q, want %q", got, wantURI)
			}
			if r.ID != tc.wantID || r.Name != tc.wantName || r.Variant != tc.opts.Variant || r.Locale != tc.locale || r.MetaLocale != tc.locale {
				t.Errorf("resolved = id %q name %q variant %q locale %q/%q", r.ID, r.Name, r.Variant, r.Locale, r.MetaLocale)
			}
			if !reflect.DeepEqual(r.VariantChain, tc.chain) {
				t.Errorf("chain = %q, want %q", r.VariantChain, tc.chain)
			}
			if r.ResolvedAt.IsZero() {
				t.Error("no resolved_at")
			}
			if tc.outline != "" {
				if got := outline(r.Nodes); got != tc.outline {
					t.Errorf("tree = %s, want %s", got, tc.outline)
				}
			}
			count, deepest := stats(t, r.Nodes, 0)
			if r.NodeCount != tc.count || count != tc.count || r.MaxDepth != deepest {
				t.Errorf("node count %d (counted %d, want %d), max depth %d (counted %d)", r.NodeCount, count, tc.count, r.MaxDepth, deepest)
			}
		})
	}
}

func TestResolvedInheritanceAndTranslation(t *testing.T) {
	c, _ := setup(t, tinyDataset(t), tokA)
	r, _, err := c.Resolved(ctx(t), "b1", api.ResolveOptions{Variant: "District", Locale: "es"})
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC); !r.ResolvedAt.Equal(want) {
		t.Errorf("resolved_at = %v, want %v (the latest updated_at of the chain)", r.ResolvedAt, want)
	}
	l1 := find(r.Nodes, "l1")
	want := api.ResolvedNode{
		ID: "l1", Title: "Lección uno (regional)",
		NodeType:     api.NodeType{Name: "lesson", DisplayName: "Lección", Icon: "file-text"},
		OrdinalLabel: "1", TypeDisplay: "Lección 1", WorkflowStatus: "published", Position: 0, Depth: 1,
		Attributes: map[string]json.RawMessage{
			"description": json.RawMessage(`"L1"`), "estimated_minutes": json.RawMessage(`50`), "teacher_notes": json.RawMessage(`"Local."`),
		},
		Inheritance: api.Inheritance{SourceCurriculum: "District", OverrideLevel: 2},
		Translation: api.Translation{IsTranslated: true, Status: "translated", SourceLocale: "es"},
	}
	if !reflect.DeepEqual(*l1, want) {
		t.Errorf("l1 =\n%+v\nwant\n%+v", *l1, want)
	}
	if a1 := find(r.Nodes, "a1"); a1.Translation != (api.Translation{Status: "fallback", SourceLocale: "en"}) || !a1.Inheritance.IsInherited || a1.Inheritance.SourceCurriculum != "Base" {
		t.Errorf("a1 = %+v", *a1)
	}
	if l3 := find(r.Nodes, "l3"); l3.WorkflowStatus != "draft" {
		t.Errorf("l3 workflow status = %q, want draft", l3.WorkflowStatus)
	}
	if u1 := find(r.Nodes, "u1"); string(u1.Attributes["extra"]) != `{"k":[1,2]}` {
		t.Errorf("u1 extra = %s, want it whole", u1.Attributes["extra"])
	}
}

func TestNode(t *testing.T) {
	for _, tc := range []struct {
		name, id       string
		ds             func(testing.TB) *dataset.Dataset
		token          string
		curriculum     string
		parent         string
		depth          int
		children       []string
		withGrandchild []string // children with has_children
	}{
		{"tiny root", "u1", tinyDataset, tokA, "b1", "", 0, []string{"l1", "l2"}, []string{"l2"}},
		{"tiny lesson", "l2", tinyDataset, tokA, "b1", "u1", 1, []string{"a1"}, nil},
		{"tiny leaf", "a1", tinyDataset, tokA, "b1", "l2", 2, nil, nil},
		{"tiny added by a variant", "l4", tinyDataset, tokA, "v1", "u1", 1, nil, nil},
		{"sample", "alg-u1", sampleDataset, sampleToken, "101", "", 0, []string{"alg-u1-l1", "alg-u1-l2", "alg-u1-l3", "alg-u1-l4"}, []string{"alg-u1-l3", "alg-u1-l4"}},
		{"sample alternate shape", "cs-m1", sampleDataset, sampleToken, "curriculum_201", "", 0, []string{"cs-m1-l1", "cs-m1-l2", "cs-m1-l3"}, []string{"cs-m1-l2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := setup(t, tc.ds(t), tc.token)
			d, _, err := c.Node(ctx(t), tc.id)
			if err != nil {
				t.Fatalf("Node(%q): %v", tc.id, err)
			}
			if got, want := s.last(t).URI, prefix+"/api/v1/content_nodes/"+tc.id; got != want {
				t.Errorf("URI = %q, want %q", got, want)
			}
			if d.Node.ID != tc.id || d.Node.Title == "" || d.Node.Depth != tc.depth || d.Node.HasChildren != (len(tc.children) > 0) {
				t.Errorf("node = %+v", d.Node)
			}
			if d.CurriculumID != tc.curriculum || d.ParentID != tc.parent {
				t.Errorf("curriculum, parent = %q, %q; want %q, %q", d.CurriculumID, d.ParentID, tc.curriculum, tc.parent)
			}
			if got := nodeIDs(d.Children); !reflect.DeepEqual(got, append([]string{}, tc.children...)) {
				t.Errorf("children = %q, want %q", got, tc.children)
			}
			if d.ChildrenCount != len(tc.children) || d.AncestryDepth != tc.depth {
				t.Errorf("meta = %d children, ancestry depth %d", d.ChildrenCount, d.AncestryDepth)
			}
			for i, ch := range d.Children {
				if ch.Depth != tc.depth+1 || ch.Position != i || ch.Title == "" || ch.TypeDisplay == "" || ch.HasChildren != slices.Contains(tc.withGrandchild, ch.ID) {
					t.Errorf("child %d = %+v", i, ch)
				}
			}
		})
	}
}

func TestResolvedNode(t *testing.T) {
	for _, tc := range []struct {
		name, id  string
		ds        func(testing.TB) *dataset.Dataset
		token     string
		opts      api.ResolveOptions
		wantQuery string
		title     string
		inh       api.Inheritance
		tr        api.Translation
		outline   string
	}{
		{"tiny base", "l1", tinyDataset, tokA, api.ResolveOptions{}, "", "Lesson one",
			api.Inheritance{SourceCurriculum: "Base"}, api.Translation{Status: "original", SourceLocale: "en"}, "l1"},
		{"tiny variant in Spanish", "l1", tinyDataset, tokA, api.ResolveOptions{Variant: "Region", Locale: "es"}, "locale=es&variant=Region", "Lección uno (regional)",
			api.Inheritance{SourceCurriculum: "Region", OverrideLevel: 1}, api.Translation{IsTranslated: true, Status: "translated", SourceLocale: "es"}, "l1"},
		{"tiny subtree", "u1", tinyDataset, tokA, api.ResolveOptions{Variant: "District"}, "variant=District", "Unit one",
			api.Inheritance{IsInherited: true, SourceCurriculum: "Base"}, api.Translation{Status: "original", SourceLocale: "en"}, "u1(l1 l4 l2(a1))"},
		{"sample", "alg-u1-l1", sampleDataset, sampleToken, api.ResolveOptions{Variant: "Texas", Locale: "es"}, "locale=es&variant=Texas", "Variables y expresiones",
			api.Inheritance{IsInherited: true, SourceCurriculum: "Algebra 1"}, api.Translation{IsTranslated: true, Status: "translated", SourceLocale: "es"}, "alg-u1-l1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := setup(t, tc.ds(t), tc.token)
			n, _, err := c.ResolvedNode(ctx(t), tc.id, tc.opts)
			if err != nil {
				t.Fatalf("ResolvedNode: %v", err)
			}
			wantURI := prefix + "/api/v1/content_nodes/" + tc.id + "/resolved"
			if tc.wantQuery != "" {
				wantURI += "?" + tc.wantQuery
			}
			if got := s.last(t).URI; got != wantURI {
				t.Errorf("URI = %q, want %q", got, wantURI)
			}
			if n.Title != tc.title || n.Inheritance != tc.inh || n.Translation != tc.tr {
				t.Errorf("node = %q %+v %+v", n.Title, n.Inheritance, n.Translation)
			}
			if got := outline([]api.ResolvedNode{*n}); got != tc.outline {
				t.Errorf("tree = %s, want %s", got, tc.outline)
			}
		})
	}
}

// TestIDsAreEscaped serves ids with characters that mean something in a URL.
func TestIDsAreEscaped(t *testing.T) {
	ds := tinyDataset(t)
	weird := []string{"a b/c?d#e%f", "..", ".", "ü:ñ;x,y", "curriculum:201"}
	for _, id := range weird {
		ds.Curricula = append(ds.Curricula, dataset.Curriculum{
			ID: id, Organization: "org-a", Name: "Weird " + id, PrimaryLocale: "en",
			Locales: []dataset.Locale{{Code: "en", Name: "English"}},
			Nodes:   []dataset.Node{{ID: "n/" + id, Title: "Node " + id, NodeType: "unit"}},
		})
	}
	c, _ := setup(t, ds, tokA)
	for _, id := range weird {
		d, _, err := c.Curriculum(ctx(t), id)
		if err != nil {
			t.Errorf("Curriculum(%q): %v", id, err)
			continue
		}
		if d.Curriculum.ID != id || len(d.RootNodes) != 1 {
			t.Errorf("Curriculum(%q) = %+v", id, d.Curriculum)
		}
		n, _, err := c.Node(ctx(t), "n/"+id)
		if err != nil || n.Node.ID != "n/"+id {
			t.Errorf("Node(%q) = %v, %v", "n/"+id, n, err)
		}
		if _, _, err := c.Resolved(ctx(t), id, api.ResolveOptions{Locale: "en"}); err != nil {
			t.Errorf("Resolved(%q): %v", id, err)
		}
	}
}

func TestEmptyIDIsRefused(t *testing.T) {
	c, s := setup(t, tinyDataset(t), tokA)
	calls := map[string]func() error{
		"Curriculum":   func() error { _, _, err := c.Curriculum(ctx(t), ""); return err },
		"Variants":     func() error { _, _, err := c.Variants(ctx(t), ""); return err },
		"Locales":      func() error { _, _, err := c.Locales(ctx(t), ""); return err },
		"Resolved":     func() error { _, _, err := c.Resolved(ctx(t), "", api.ResolveOptions{}); return err },
		"Node":         func() error { _, _, err := c.Node(ctx(t), ""); return err },
		"ResolvedNode": func() error { _, _, err := c.ResolvedNode(ctx(t), "", api.ResolveOptions{}); return err },
	}
	for name, call := range calls {
		if err := call(); err == nil || !strings.Contains(err.Error(), "empty") {
			t.Errorf("%s(\"\") = %v, want an error about the empty id", name, err)
		}
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests sent for empty ids", n)
	}
}
