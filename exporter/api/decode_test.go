package api_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/api"
)

// TestTolerantDecoding serves handcrafted answers with unknown members,
// unknown enum values, missing members and loosely typed values.
func TestTolerantDecoding(t *testing.T) {
	srv := fixed(t, map[string]http.HandlerFunc{
		"me": jsonBody(200, `{"status":"ok","version":3,"data":{"id":42,"type":"user","attributes":{"email":"x@example.org","name":"X","avatar":{"url":"u"}},
			"links":{"self":"/me"}},"meta":{"organization":"org-9","request_id":"abc"}}`),
		"curricula": jsonBody(200, `{"data":[
			{"id":101,"type":"curriculum","attributes":{"name":"Full","description":"d","structure_name":"s","node_count":"29","is_variant":"true",
				"parent_id":7,"created_at":"2025-05-12 15:00:00","updated_at":"sometime","color":"blue"}},
			{"id":"curriculum_9","type":"curriculum","attributes":{"title":"Alt","description":"d2","status":"archived","badge":null}},
			{"id":"x","attributes":{"name":null,"title":"Both","status":"published"}},
			{"id":"y","attributes":null}
		],"meta":{"total_count":4,"cursor":"next"}}`),
		"curricula/c1": jsonBody(200, `{"data":{"id":"c1","type":"curriculum","attributes":{"title":"Alt","status":"in_review"},
			"relationships":{"root_nodes":[
				{"id":1,"type":"content_node","attributes":{"title":"One","node_type":"unit","workflow_status":"retired","position":0.0,"depth":"0",
					"has_children":1,"ordinal_label":1,"attributes":{"nested":{"a":[1,{"b":null}]},"gone":null,"n":1.5e3},"future":true}},
				{"id":2,"attributes":{"node_type":null,"position":"1","attributes":{"title":"From free-form"}}}
			],"owner":{"data":{"id":"o"}}}},"included":[]}`),
		"curricula/c1/variants": jsonBody(200, `{"data":[{"id":"v","type":"curriculum_variant","attributes":{"title":"Titled","parent_id":"c1","depth":"1",
			"node_count":3.0,"override_count":null,"added_count":"2","tags":["a"]}}],"meta":{}}`),
		"curricula/c1/locales": jsonBody(200, `{"data":[
			{"id":"c1:en","type":"locale","attributes":{"code":"en","name":"English","is_primary":"yes","translation_progress":100,"published_progress":"100"}},
			{"id":"c1:es","type":"locale","attributes":{"code":"es","name":"Español","is_primary":false,"translation_progress":89.5,"published_progress":null,"direction":"ltr"}}
		]}`),
		"curricula/c1/resolved": jsonBody(200, `{"data":{"id":"c1","type":"resolved_curriculum","attributes":{"title":"Alt","variant":"","resolved_at":"2026-01-02T03:04:05.678+02:00"},
			"relationships":{"content_nodes":{"data":[
				{"id":"r1","type":"resolved_content_node","attributes":{"title":"R1","node_type":{"name":"unit","display_name":"Unit","shape":"round"},
					"workflow_status":"scheduled","attributes":{"k":"v"},
					"inheritance_metadata":{"is_inherited":"false","source_curriculum":"Alt","override_level":"0","why":"-"},
					"translation_metadata":{"is_translated":0,"translation_status":"machine_translated","source_locale":"en","quality":0.5},
					"children":[{"id":"r1a","attributes":{"title":"In attributes","translation_metadata":{"status":"pending"}}}]}},
				{"id":"r2","attributes":{"title":"R2","position":1},
					"relationships":{"children":{"data":[{"id":"r2a","attributes":{"title":"In relationships"},"children":[{"id":"r2a1","attributes":{"title":"Deep"}}]}]}}}
			]}}},"meta":{"variant_chain":["Alt",5],"locale":"fr","extra":{}}}`),
		"content_nodes/n": jsonBody(200, `{"status":"ok","data":{"id":"n","type":"content_node","attributes":{"title":"N","depth":2,"node_type":{"name":"lesson"}},
			"relationships":{"curriculum":{"data":{"id":101,"type":"curriculum"}},"parent":{"data":"p"},"children":{"data":[
				{"id":"k","attributes":{"title":"K","has_children":"false","attributes":{"extra":1}}}]},"siblings":{"data":[]}}}}`),
		"content_nodes/n/resolved": jsonBody(200, `{"data":{"id":"n","attributes":{"title":"N","depth":3},"children":[{"id":"m","attributes":{"title":"M"}}],
			"relationships":{"curriculum":{"data":{"id":"c1"}},"parent":{"data":null}}},"meta":"unexpected"}`),
	})
	c := newClient(t, srv.URL, "tok")

	t.Run("user", func(t *testing.T) {
		u, _, err := c.Me(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if want := (api.User{ID: "42", Email: "x@example.org", Name: "X", OrganizationID: "org-9"}); *u != want {
			t.Errorf("Me = %+v, want %+v", *u, want)
		}
	})
	t.Run("curricula", func(t *testing.T) {
		p, _, err := c.ListCurricula(ctx(t), api.ListOptions{Page: 3})
		if err != nil {
			t.Fatal(err)
		}
		want := []api.Curriculum{
			{ID: "101", Name: "Full", Description: "d", StructureName: "s", NodeCount: 29, IsVariant: true, ParentID: "7",
				CreatedAt: time.Date(2025, 5, 12, 15, 0, 0, 0, time.UTC), Shape: api.ShapeFull},
			{ID: "curriculum_9", Name: "Alt", Description: "d2", Status: "archived", Shape: api.ShapeAlternate},
			{ID: "x", Name: "Both", Status: "published", Shape: api.ShapeAlternate},
			{ID: "y", Shape: api.ShapeFull},
		}
		if !reflect.DeepEqual(p.Curricula, want) {
			t.Errorf("curricula =\n%+v\nwant\n%+v", p.Curricula, want)
		}
		if p.TotalCount != 4 || p.Page != 3 || p.PerPage != 0 {
			t.Errorf("page meta = %d %d %d; want 4 3 0 (page from the options)", p.TotalCount, p.Page, p.PerPage)
		}
	})
	t.Run("curriculum", func(t *testing.T) {
		d, _, err := c.Curriculum(ctx(t), "c1")
		if err != nil {
			t.Fatal(err)
		}
		if d.Curriculum.Shape != api.ShapeAlternate || d.Curriculum.Status != "in_review" || d.RootCount != 2 || d.TotalNodeCount != 0 {
			t.Errorf("detail = %+v", d)
		}
		want := []api.Node{
			{ID: "1", Title: "One", NodeType: api.NodeType{Name: "unit"}, OrdinalLabel: "1", WorkflowStatus: "retired", HasChildren: true,
				Attributes: map[string]json.RawMessage{"nested": json.RawMessage(`{"a":[1,{"b":null}]}`), "gone": json.RawMessage(`null`), "n": json.RawMessage(`1.5e3`)}},
			{ID: "2", Title: "From free-form", Position: 1, Attributes: map[string]json.RawMessage{"title": json.RawMessage(`"From free-form"`)}},
		}
		if !reflect.DeepEqual(d.RootNodes, want) {
			t.Errorf("roots =\n%+v\nwant\n%+v", d.RootNodes, want)
		}
	})
	t.Run("variants", func(t *testing.T) {
		l, _, err := c.Variants(ctx(t), "c1")
		if err != nil {
			t.Fatal(err)
		}
		want := []api.Variant{{ID: "v", Name: "Titled", ParentID: "c1", Depth: 1, NodeCount: 3, AddedCount: 2}}
		if !reflect.DeepEqual(l.Variants, want) || l.TotalCount != 1 {
			t.Errorf("variants = %+v", l)
		}
	})
	t.Run("locales", func(t *testing.T) {
		l, _, err := c.Locales(ctx(t), "c1")
		if err != nil {
			t.Fatal(err)
		}
		want := []api.Locale{
			{Code: "en", Name: "English", IsPrimary: true, TranslationProgress: 100, PublishedProgress: 100},
			{Code: "es", Name: "Español", TranslationProgress: 89},
		}
		if !reflect.DeepEqual(l.Locales, want) {
			t.Errorf("locales =\n%+v\nwant\n%+v", l.Locales, want)
		}
		if l.PrimaryLocale != "en" || l.TotalLocales != 2 {
			t.Errorf("primary %q, total %d; want en (from is_primary), 2 (counted)", l.PrimaryLocale, l.TotalLocales)
		}
	})
	t.Run("resolved", func(t *testing.T) {
		r, _, err := c.Resolved(ctx(t), "c1", api.ResolveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Name != "Alt" || r.Locale != "fr" || r.MetaLocale != "fr" || !reflect.DeepEqual(r.VariantChain, []string{"Alt", "5"}) {
			t.Errorf("resolved = %+v", r)
		}
		if want := time.Date(2026, 1, 2, 1, 4, 5, 678e6, time.UTC); !r.ResolvedAt.Equal(want) {
			t.Errorf("resolved_at = %v, want %v", r.ResolvedAt, want)
		}
		if got := outline(r.Nodes); got != "r1(r1a) r2(r2a(r2a1))" {
			t.Errorf("tree = %s", got)
		}
		if r.NodeCount != 5 || r.MaxDepth != 2 {
			t.Errorf("counted %d nodes, depth %d; want 5, 2", r.NodeCount, r.MaxDepth)
		}
		r1 := r.Nodes[0]
		if r1.WorkflowStatus != "scheduled" || r1.Translation != (api.Translation{Status: "machine_translated", SourceLocale: "en"}) ||
			r1.Inheritance != (api.Inheritance{SourceCurriculum: "Alt"}) || r1.NodeType != (api.NodeType{Name: "unit", DisplayName: "Unit"}) {
			t.Errorf("r1 = %+v", r1)
		}
		if s := r1.Children[0].Translation.Status; s != "pending" {
			t.Errorf("translation status from metadata.status = %q", s)
		}
		if d := find(r.Nodes, "r2a1").Depth; d != 2 {
			t.Errorf("depth counted from nesting = %d, want 2", d)
		}
	})
	t.Run("node", func(t *testing.T) {
		d, _, err := c.Node(ctx(t), "n")
		if err != nil {
			t.Fatal(err)
		}
		want := api.NodeDetail{
			Node:         api.Node{ID: "n", Title: "N", Depth: 2, NodeType: api.NodeType{Name: "lesson"}},
			CurriculumID: "101", ParentID: "p",
			Children:      []api.Node{{ID: "k", Title: "K", Depth: 3, Attributes: map[string]json.RawMessage{"extra": json.RawMessage(`1`)}}},
			ChildrenCount: 1, AncestryDepth: 2,
		}
		if !reflect.DeepEqual(*d, want) {
			t.Errorf("node =\n%+v\nwant\n%+v", *d, want)
		}
	})
	t.Run("resolved node", func(t *testing.T) {
		n, _, err := c.ResolvedNode(ctx(t), "n", api.ResolveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if n.Title != "N" || n.Depth != 3 || len(n.Children) != 1 || n.Children[0].Depth != 4 {
			t.Errorf("resolved node = %+v", n)
		}
	})
}

// TestDecodeRefuses lists bodies that are not the resource asked for.
func TestDecodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v       any
		body    string
		errLike string
	}{
		{"not JSON", new(api.User), `<html>`, "invalid character"},
		{"empty", new(api.User), ``, "unexpected end of JSON input"},
		{"array", new(api.CurriculumPage), `[{"id":1}]`, "not a JSON object"},
		{"no data", new(api.User), `{"meta":{}}`, "no data"},
		{"null data", new(api.CurriculumPage), `{"data":null}`, "no data"},
		{"error body with 200", new(api.ResolvedCurriculum), `{"error":{"code":"x"}}`, "no data"},
		{"list where one is expected", new(api.CurriculumDetail), `{"data":[]}`, "data: got array, want an object"},
		{"one where a list is expected", new(api.VariantList), `{"data":{"id":"v"}}`, "data: got object, want an array"},
		{"title of the wrong kind", new(api.NodeDetail), `{"data":{"id":"n","attributes":{"title":{"en":"x"}}}}`, "data.attributes.title: got object, want a string"},
		{"free-form attributes not an object", new(api.ResolvedNode), `{"data":{"id":"n","attributes":{"attributes":"text"}}}`, `node "n": attributes.attributes: got string, want an object`},
		{"number of the wrong kind", new(api.LocaleList), `{"data":[{"attributes":{"translation_progress":"most"}}]}`, "data.attributes.translation_progress: got string \"most\", want a number"},
		{"boolean of the wrong kind", new(api.LocaleList), `{"data":[{"attributes":{"is_primary":"maybe"}}]}`, "data.attributes.is_primary: got string \"maybe\", want a boolean"},
		{"id of the wrong kind", new(api.User), `{"data":{"id":{"n":1}}}`, "data.id: got object, want a string"},
		{"children of the wrong kind", new(api.ResolvedCurriculum), `{"data":{"relationships":{"content_nodes":{"data":[{"children":{"id":1}}]}}}}`, "relationships.content_nodes: children: got object, want an array"},
		{"resolved_at of the wrong kind", new(api.ResolvedCurriculum), `{"data":{"attributes":{"resolved_at":true}}}`, "data.attributes.resolved_at: got bool, want a timestamp"},
		{"node type of the wrong kind", new(api.CurriculumDetail), `{"data":{"relationships":{"root_nodes":[{"attributes":{"node_type":5}}]}}}`, "attributes.node_type: got number 5, want an object"},
		{"trailing data", new(api.User), `{"data":{}} {}`, "invalid character"},
		// The units of a tree are read side by side: the error is still
		// the first bad node's in the body's order, whichever ends first.
		{"the first of several bad nodes", new(api.ResolvedCurriculum), `{"data":{"relationships":{"content_nodes":{"data":[{"id":"r","children":[` +
			`{"id":"u1","children":[{"id":"ok"}]},{"id":"u2","children":[{"id":"bad1","attributes":{"attributes":1}}]},` +
			`{"id":"u3","attributes":{"attributes":2}},{"id":"u4","children":[{"id":"bad3","attributes":{"attributes":3}}]}]}]}}}}`, `node "bad1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := api.Decode([]byte(tc.body), tc.v)
			var de *api.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("Decode = %v, want a *DecodeError", err)
			}
			if !strings.Contains(err.Error(), tc.errLike) {
				t.Errorf("Decode error %q does not mention %q", err, tc.errLike)
			}
		})
	}
}

func TestDecodeResolved(t *testing.T) {
	c, _ := setup(t, tinyDataset(t), tokA)
	want, resp, err := c.Resolved(ctx(t), "b1", api.ResolveOptions{Variant: "Region", Locale: "es"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := api.DecodeResolved(resp.Body)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("DecodeResolved = %+v, %v; want %+v", got, err, want)
	}
	if _, err := api.DecodeResolved([]byte(`{"data":`)); !errors.As(err, new(*api.DecodeError)) {
		t.Errorf("DecodeResolved of a cut body = %v", err)
	}
}
