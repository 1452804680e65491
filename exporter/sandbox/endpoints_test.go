package sandbox_test

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// Full-shape curriculum attributes (spec 2.1).
var fullCurriculumKeys = []string{"name", "description", "structure_name", "node_count", "is_variant", "parent_id", "created_at", "updated_at"}

// Node attributes of spec 2.2, and the reduced record of a child.
var (
	nodeKeys  = []string{"title", "node_type", "ordinal_label", "type_display", "workflow_status", "position", "depth", "has_children", "attributes"}
	childKeys = []string{"title", "node_type", "ordinal_label", "type_display", "workflow_status", "position", "has_children"}
)

// TestEndpoints requests each of the eight endpoints on tiny.json and checks
// status, envelope, record types and key fields.
func TestEndpoints(t *testing.T) {
	h := newTiny(t)
	tests := []struct {
		name       string
		target     string
		token      string
		wantStatus bool // top-level "status": "ok"
		check      func(t *testing.T, body map[string]any)
	}{
		{
			name: "me", target: "/api/v1/me", token: tokA, wantStatus: true,
			check: func(t *testing.T, body map[string]any) {
				d := obj(t, body, "data")
				if str(t, d, "id") != "u-a" || str(t, d, "type") != "user" {
					t.Errorf("data = %v, want user u-a", d)
				}
				a := obj(t, d, "attributes")
				wantKeys(t, "user attributes", a, "email", "name")
				if str(t, a, "email") != "a@example.org" || str(t, a, "name") != "Ada" {
					t.Errorf("attributes = %v", a)
				}
				if str(t, body, "meta", "organization", "id") != "org-a" || str(t, body, "meta", "organization", "name") != "Org A" {
					t.Errorf("meta = %v", body["meta"])
				}
			},
		},
		{
			name: "me of org-b", target: "/api/v1/me", token: tokB, wantStatus: true,
			check: func(t *testing.T, body map[string]any) {
				if str(t, body, "data", "id") != "u-b" || str(t, body, "data", "attributes", "email") != "b@example.org" {
					t.Errorf("data = %v, want user u-b", body["data"])
				}
			},
		},
		{
			name: "curricula list", target: "/api/v1/curricula", token: tokA,
			check: func(t *testing.T, body map[string]any) {
				list := arr(t, body, "data")
				if got := ids(t, list); !slices.Equal(got, []string{"b1", "v1", "v2"}) {
					t.Errorf("ids %v, want [b1 v1 v2] (org-a only, dataset order)", got)
				}
				for _, r := range list {
					if str(t, r, "type") != "curriculum" {
						t.Errorf("record type %v", r)
					}
				}
				m := obj(t, body, "meta")
				wantKeys(t, "meta", m, "total_count", "page", "per_page")
				if num(t, m, "total_count") != 3 || num(t, m, "page") != 1 || num(t, m, "per_page") != sandbox.DefaultPerPage {
					t.Errorf("meta = %v", m)
				}
			},
		},
		{
			name: "curricula list of org-b", target: "/api/v1/curricula", token: tokB,
			check: func(t *testing.T, body map[string]any) {
				if got := ids(t, arr(t, body, "data")); !slices.Equal(got, []string{"other"}) {
					t.Errorf("ids %v, want [other]", got)
				}
			},
		},
		{
			name: "curriculum full shape", target: "/api/v1/curricula/b1", token: tokA,
			check: func(t *testing.T, body map[string]any) {
				d := obj(t, body, "data")
				if str(t, d, "id") != "b1" || str(t, d, "type") != "curriculum" {
					t.Errorf("data id/type = %v/%v", d["id"], d["type"])
				}
				a := obj(t, d, "attributes")
				wantKeys(t, "attributes", a, fullCurriculumKeys...)
				if str(t, a, "name") != "Base" || str(t, a, "structure_name") != "Units" || num(t, a, "node_count") != 7 ||
					boolean(t, a, "is_variant") || a["parent_id"] != nil ||
					str(t, a, "created_at") != "2026-01-01T00:00:00Z" || str(t, a, "updated_at") != "2026-02-01T00:00:00Z" {
					t.Errorf("attributes = %v", a)
				}
				rel := obj(t, d, "relationships")
				wantKeys(t, "relationships", rel, "content_nodes")
				roots := arr(t, rel, "content_nodes", "data")
				if got := ids(t, roots); !slices.Equal(got, []string{"u1", "u2", "x1"}) {
					t.Errorf("root nodes %v, want [u1 u2 x1]", got)
				}
				for _, r := range roots {
					if str(t, r, "type") != "content_node" {
						t.Errorf("root type %v", r)
					}
					wantKeys(t, "root attributes", obj(t, r, "attributes"), nodeKeys...)
				}
				if !boolean(t, roots[0], "attributes", "has_children") || boolean(t, roots[2], "attributes", "has_children") {
					t.Error("has_children: want u1 true, x1 false")
				}
				m := obj(t, body, "meta")
				if num(t, m, "root_count") != 3 || num(t, m, "total_node_count") != 7 {
					t.Errorf("meta = %v, want root_count 3, total_node_count 7", m)
				}
			},
		},
		{
			name: "curriculum full shape, variant", target: "/api/v1/curricula/v2", token: tokA,
			check: func(t *testing.T, body map[string]any) {
				a := obj(t, body, "data", "attributes")
				wantKeys(t, "attributes", a, fullCurriculumKeys...)
				if !boolean(t, a, "is_variant") || str(t, a, "parent_id") != "v1" || num(t, a, "node_count") != 10 ||
					str(t, a, "name") != "District" || str(t, a, "updated_at") != "2026-01-04T00:00:00Z" {
					t.Errorf("attributes = %v", a)
				}
				if got := ids(t, arr(t, body, "data", "relationships", "content_nodes", "data")); !slices.Equal(got, []string{"d0", "u1", "u2", "x1"}) {
					t.Errorf("root nodes %v, want [d0 u1 u2 x1]", got)
				}
				if num(t, body, "meta", "root_count") != 4 || num(t, body, "meta", "total_node_count") != 10 {
					t.Errorf("meta = %v", body["meta"])
				}
			},
		},
		{
			name: "curriculum alternate shape", target: "/api/v1/curricula/v1", token: tokA, wantStatus: true,
			check: func(t *testing.T, body map[string]any) {
				d := obj(t, body, "data")
				if str(t, d, "id") != "v1" || str(t, d, "type") != "curriculum" {
					t.Errorf("data id/type = %v/%v", d["id"], d["type"])
				}
				a := obj(t, d, "attributes")
				wantKeys(t, "attributes", a, "title", "description", "status")
				if str(t, a, "title") != "Region" || str(t, a, "description") != "" || str(t, a, "status") != "published" {
					t.Errorf("attributes = %v", a)
				}
				rel := obj(t, d, "relationships")
				wantKeys(t, "relationships", rel, "root_nodes")
				if got := ids(t, arr(t, rel, "root_nodes", "data")); !slices.Equal(got, []string{"u1", "u2", "x1"}) {
					t.Errorf("root nodes %v", got)
				}
				if num(t, body, "meta", "root_count") != 3 || num(t, body, "meta", "total_node_count") != 8 {
					t.Errorf("meta = %v", body["meta"])
				}
			},
		},
		{
			name: "variants", target: "/api/v1/curricula/b1/variants", token: tokA,
			check: func(t *testing.T, body map[string]any) {
				list := arr(t, body, "data")
				if got := ids(t, list); !slices.Equal(got, []string{"v1", "v2"}) {
					t.Fatalf("variants %v, want [v1 v2]", got)
				}
				want := []map[string]any{
					{"name": "Region", "description": "", "parent_id": "b1", "depth": 1.0, "node_count": 8.0, "override_count": 1.0, "added_count": 1.0},
					{"name": "District", "description": "", "parent_id": "v1", "depth": 2.0, "node_count": 10.0, "override_count": 2.0, "added_count": 2.0},
				}
				for i, r := range list {
					if str(t, r, "type") != "curriculum_variant" {
						t.Errorf("type %v", r)
					}
					a := obj(t, r, "attributes")
					for k, v := range want[i] {
						if a[k] != v {
							t.Errorf("%s.%s = %v, want %v", want[i]["name"], k, a[k], v)
						}
					}
					wantKeys(t, "variant attributes", a, slices.Collect(maps.Keys(want[i]))...)
				}
				m := obj(t, body, "meta")
				if num(t, m, "total_count") != 2 || str(t, m, "curriculum_id") != "b1" || str(t, m, "curriculum_name") != "Base" {
					t.Errorf("meta = %v", m)
				}
			},
		},
		{
			name: "variants of a variant", target: "/api/v1/curricula/v1/variants", token: tokA,
			check: func(t *testing.T, body map[string]any) {
				list := arr(t, body, "data")
				if got := ids(t, list); !slices.Equal(got, []string{"v2"}) {
					t.Fatalf("variants %v, want [v2]", got)
				}
				if num(t, list[0], "attributes", "depth") != 1 {
					t.Errorf("depth counted from v1 should be 1: %v", list[0])
				}
				if num(t, body, "meta", "total_count") != 1 || str(t, body, "meta", "curriculum_name") != "Region" {
					t.Errorf("meta = %v", body["meta"])
				}
			},
		},
		{
			name: "variants, none", target: "/api/v1/curricula/other/variants", token: tokB,
			check: func(t *testing.T, body map[string]any) {
				if list := arr(t, body, "data"); len(list) != 0 {
					t.Errorf("data = %v, want []", list)
				}
				if num(t, body, "meta", "total_count") != 0 {
					t.Errorf("meta = %v", body["meta"])
				}
			},
		},
		{
			name: "locales", target: "/api/v1/curricula/b1/locales", token: tokA,
			check: func(t *testing.T, body map[string]any) {
				list := arr(t, body, "data")
				if got := ids(t, list); !slices.Equal(got, []string{"b1:en", "b1:es", "b1:ar"}) {
					t.Errorf("ids %v", got)
				}
				for _, r := range list {
					if str(t, r, "type") != "locale" {
						t.Errorf("type %v", r)
					}
					wantKeys(t, "locale attributes", obj(t, r, "attributes"), "code", "name", "is_primary", "translation_progress", "published_progress")
				}
				if str(t, list[1], "attributes", "name") != "Español" || !boolean(t, list[0], "attributes", "is_primary") || boolean(t, list[1], "attributes", "is_primary") {
					t.Errorf("entries %v", list)
				}
				m := obj(t, body, "meta")
				if str(t, m, "primary_locale") != "en" || num(t, m, "total_locales") != 3 ||
					str(t, m, "curriculum_id") != "b1" || str(t, m, "curriculum_name") != "Base" {
					t.Errorf("meta = %v", m)
				}
			},
		},
		{
			name: "resolved", target: "/api/v1/curricula/b1/resolved", token: tokA,
			check: func(t *testing.T, body map[string]any) {
				d := obj(t, body, "data")
				if str(t, d, "id") != "b1" || str(t, d, "type") != "resolved_curriculum" {
					t.Errorf("data id/type = %v/%v", d["id"], d["type"])
				}
				a := obj(t, d, "attributes")
				wantKeys(t, "attributes", a, "name", "variant", "locale", "resolved_at")
				if str(t, a, "name") != "Base" || str(t, a, "variant") != "" || str(t, a, "locale") != "en" ||
					str(t, a, "resolved_at") != "2026-02-01T00:00:00Z" {
					t.Errorf("attributes = %v", a)
				}
				nodes := arr(t, d, "relationships", "content_nodes", "data")
				if got := ids(t, nodes); !slices.Equal(got, []string{"u1", "u2", "x1"}) {
					t.Errorf("roots %v", got)
				}
				for _, n := range nodes {
					if str(t, n, "type") != "resolved_content_node" {
						t.Errorf("type %v", n)
					}
				}
				m := obj(t, body, "meta")
				wantKeys(t, "meta", m, "variant_chain", "locale", "node_count", "max_depth")
				if num(t, m, "node_count") != 7 || num(t, m, "max_depth") != 2 || str(t, m, "locale") != "en" {
					t.Errorf("meta = %v", m)
				}
			},
		},
		{
			name: "content node", target: "/api/v1/content_nodes/u1", token: tokA, wantStatus: true,
			check: func(t *testing.T, body map[string]any) {
				d := obj(t, body, "data")
				if str(t, d, "id") != "u1" || str(t, d, "type") != "content_node" {
					t.Errorf("data id/type = %v/%v", d["id"], d["type"])
				}
				a := obj(t, d, "attributes")
				wantKeys(t, "attributes", a, nodeKeys...)
				if str(t, a, "title") != "Unit one" || !boolean(t, a, "has_children") || num(t, a, "depth") != 0 ||
					str(t, a, "type_display") != "Unit 1" || str(t, a, "attributes", "description") != "About *one*." {
					t.Errorf("attributes = %v", a)
				}
				nt := obj(t, a, "node_type")
				wantKeys(t, "node_type", nt, "name", "display_name", "icon")
				if nt["name"] != "unit" || nt["display_name"] != "Unit" || nt["icon"] != "book" {
					t.Errorf("node_type = %v", nt)
				}
				rel := obj(t, d, "relationships")
				wantKeys(t, "relationships", rel, "curriculum", "parent", "children")
				if str(t, rel, "curriculum", "data", "id") != "b1" || str(t, rel, "curriculum", "data", "type") != "curriculum" {
					t.Errorf("curriculum = %v", rel["curriculum"])
				}
				if walk(t, rel, "parent", "data") != nil {
					t.Errorf("parent of a root = %v, want null", rel["parent"])
				}
				children := arr(t, rel, "children", "data")
				if got := ids(t, children); !slices.Equal(got, []string{"l1", "l2"}) {
					t.Errorf("children %v", got)
				}
				for _, c := range children {
					wantKeys(t, "child attributes", obj(t, c, "attributes"), childKeys...)
				}
				if boolean(t, children[0], "attributes", "has_children") || !boolean(t, children[1], "attributes", "has_children") {
					t.Error("has_children: want l1 false, l2 true")
				}
				m := obj(t, body, "meta")
				if num(t, m, "children_count") != 2 || num(t, m, "ancestry_depth") != 0 {
					t.Errorf("meta = %v", m)
				}
			},
		},
		{
			name: "resolved content node", target: "/api/v1/content_nodes/l1/resolved", token: tokA,
			check: func(t *testing.T, body map[string]any) {
				d := obj(t, body, "data")
				if str(t, d, "id") != "l1" || str(t, d, "type") != "resolved_content_node" {
					t.Errorf("data id/type = %v/%v", d["id"], d["type"])
				}
				if str(t, d, "attributes", "title") != "Lesson one" {
					t.Errorf("title %v", d["attributes"])
				}
				if str(t, d, "relationships", "curriculum", "data", "id") != "b1" || str(t, d, "relationships", "parent", "data", "id") != "u1" {
					t.Errorf("relationships = %v", d["relationships"])
				}
				if c := arr(t, d, "children"); len(c) != 0 {
					t.Errorf("children = %v", c)
				}
				m := obj(t, body, "meta")
				if got := arr(t, m, "variant_chain"); len(got) != 1 || got[0] != "Base" {
					t.Errorf("variant_chain %v", got)
				}
				if num(t, m, "node_count") != 1 || num(t, m, "max_depth") != 1 {
					t.Errorf("meta = %v", m)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := get(t, h, tc.target, tc.token)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d, want 200; body %s", rec.Code, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if rec.Header().Get("ETag") == "" {
				t.Error("no ETag")
			}
			body := decodeObject(t, rec.Body.Bytes())
			if _, ok := body["data"]; !ok {
				t.Fatal("no data member")
			}
			if _, ok := body["meta"]; !ok {
				t.Error("no meta member")
			}
			if tc.wantStatus {
				if s, _ := body["status"].(string); s != "ok" {
					t.Errorf("status member %v, want \"ok\"", body["status"])
				}
			} else if _, ok := body["status"]; ok {
				t.Errorf("unexpected top-level status member %v", body["status"])
			}
			tc.check(t, body)
		})
	}
}

// TestCurriculumShapes checks both record shapes in the list and in single
// responses: v1 is alternate, everything else full.
func TestCurriculumShapes(t *testing.T) {
	h := newTiny(t)
	list := arr(t, mustGet(t, h, "/api/v1/curricula", tokA), "data")
	byID := map[string]map[string]any{}
	for _, r := range list {
		byID[str(t, r, "id")] = obj(t, r, "attributes")
	}
	tests := []struct {
		id        string
		alternate bool
		parent    any
	}{
		{"b1", false, nil},
		{"v1", true, nil},
		{"v2", false, "v1"},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			single := mustGet(t, h, "/api/v1/curricula/"+tc.id, tokA)
			for where, a := range map[string]map[string]any{"list": byID[tc.id], "single": obj(t, single, "data", "attributes")} {
				if tc.alternate {
					wantKeys(t, where, a, "title", "description", "status")
					continue
				}
				wantKeys(t, where, a, fullCurriculumKeys...)
				if a["parent_id"] != tc.parent {
					t.Errorf("%s: parent_id %v, want %v", where, a["parent_id"], tc.parent)
				}
				if boolean(t, a, "is_variant") != (tc.parent != nil) {
					t.Errorf("%s: is_variant %v", where, a["is_variant"])
				}
				for _, k := range []string{"created_at", "updated_at"} {
					if _, err := time.Parse(time.RFC3339, str(t, a, k)); err != nil || !strings.HasSuffix(str(t, a, k), "Z") {
						t.Errorf("%s: %s = %v, want an ISO 8601 UTC timestamp", where, k, a[k])
					}
				}
			}
			rel := obj(t, single, "data", "relationships")
			_, hasStatus := single["status"]
			if tc.alternate {
				wantKeys(t, "relationships", rel, "root_nodes")
				if !hasStatus {
					t.Error("alternate shape: no top-level status")
				}
			} else {
				wantKeys(t, "relationships", rel, "content_nodes")
				if hasStatus {
					t.Error("full shape: unexpected top-level status")
				}
			}
		})
	}
}

// TestContentNodes checks single-node responses: one level of children, the
// parent reference, has_children and meta.
func TestContentNodes(t *testing.T) {
	h := newTiny(t)
	tests := []struct {
		id         string
		curriculum string
		parent     any
		children   []string
		depth      int
		title      string
		typeDisp   string
		status     string
		position   int
	}{
		{"u1", "b1", nil, []string{"l1", "l2"}, 0, "Unit one", "Unit 1", "published", 0},
		{"l2", "b1", "u1", []string{"a1"}, 1, "Lesson two", "Lesson 2", "published", 1},
		{"a1", "b1", "l2", []string{}, 2, "Activity", "Activity 1", "published", 0},
		{"l3", "b1", "u2", []string{}, 1, "Draft lesson", "Lesson 1", "draft", 0},
		{"x1", "b1", nil, []string{}, 0, "Glossary", "Appendix A", "published", 2},
		// Nodes added by a variant are shown as their author has them.
		{"l4", "v1", "u1", []string{}, 1, "Regional lesson", "Lesson 2", "published", 1},
		{"d0", "v2", nil, []string{"d1"}, 0, "Welcome", "Unit 1", "published", 0},
		// A base node is shown as the base has it: l1 without overrides.
		{"l1", "b1", "u1", []string{}, 1, "Lesson one", "Lesson 1", "published", 0},
		{"o1", "other", nil, []string{}, 0, "Other unit", "Unit 1", "published", 0},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			token := tokA
			if tc.curriculum == "other" {
				token = tokB
			}
			body := mustGet(t, h, "/api/v1/content_nodes/"+tc.id, token)
			a := obj(t, body, "data", "attributes")
			if str(t, a, "title") != tc.title || str(t, a, "type_display") != tc.typeDisp || str(t, a, "workflow_status") != tc.status ||
				num(t, a, "depth") != tc.depth || num(t, a, "position") != tc.position || boolean(t, a, "has_children") != (len(tc.children) > 0) {
				t.Errorf("attributes = %v", a)
			}
			rel := obj(t, body, "data", "relationships")
			if str(t, rel, "curriculum", "data", "id") != tc.curriculum {
				t.Errorf("curriculum %v, want %s", rel["curriculum"], tc.curriculum)
			}
			p := walk(t, rel, "parent", "data")
			if tc.parent == nil {
				if p != nil {
					t.Errorf("parent %v, want null", p)
				}
			} else if str(t, p, "id") != tc.parent || str(t, p, "type") != "content_node" {
				t.Errorf("parent %v, want %v", p, tc.parent)
			}
			if got := ids(t, arr(t, rel, "children", "data")); !slices.Equal(got, tc.children) {
				t.Errorf("children %v, want %v", got, tc.children)
			}
			m := obj(t, body, "meta")
			if num(t, m, "children_count") != len(tc.children) || num(t, m, "ancestry_depth") != tc.depth {
				t.Errorf("meta = %v", m)
			}
		})
	}
}

// TestHead checks that HEAD answers the headers of GET without a body.
func TestHead(t *testing.T) {
	h := newTiny(t)
	for _, target := range []string{"/api/v1/me", "/api/v1/curricula", "/api/v1/curricula/b1/resolved?locale=es", "/api/v1/content_nodes/u1"} {
		t.Run(target, func(t *testing.T) {
			g := get(t, h, target, tokA)
			hd := do(t, h, http.MethodHead, target, tokA)
			if hd.Code != http.StatusOK {
				t.Fatalf("HEAD status %d", hd.Code)
			}
			if hd.Body.Len() != 0 {
				t.Errorf("HEAD body %q, want empty", hd.Body)
			}
			for _, k := range []string{"ETag", "Content-Type", "Content-Length"} {
				if hd.Header().Get(k) == "" || hd.Header().Get(k) != g.Header().Get(k) {
					t.Errorf("%s: HEAD %q, GET %q", k, hd.Header().Get(k), g.Header().Get(k))
				}
			}
		})
	}
	// HEAD errors carry no body either.
	rec := do(t, h, http.MethodHead, "/api/v1/curricula/nope", tokA)
	if rec.Code != http.StatusNotFound || rec.Body.Len() != 0 {
		t.Errorf("HEAD of a missing curriculum: %d %q", rec.Code, rec.Body)
	}
}

// TestListen serves the handler on a loopback socket.
func TestListen(t *testing.T) {
	srv, err := sandbox.Listen("127.0.0.1:0", newTiny(t))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") || srv.Addr() == nil {
		t.Fatalf("URL %q", srv.URL)
	}
	resp, body, err := clientGet(t, http.DefaultClient, srv.URL+"/api/v1/me", tokA)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || str(t, decodeObject(t, body), "data", "id") != "u-a" {
		t.Fatalf("status %d, body %s", resp.StatusCode, body)
	}
	if err := srv.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// TestSample checks what holds for any reasonable sample dataset: both
// shapes occur, every endpoint answers 200 for every curriculum, and every
// variant resolves in every locale.
func TestSample(t *testing.T) {
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h := newHandler(t, ds, sandbox.Options{Limits: noLimits})
	ix := h.Index()
	tokens := map[string]string{} // organization -> token
	for _, o := range ds.Organizations {
		if tok := validToken(ix, o.ID); tok != "" {
			tokens[o.ID] = tok
		}
	}
	if len(tokens) < 2 {
		t.Fatalf("sample: valid tokens for %d organizations, want at least 2", len(tokens))
	}
	shapes := map[string]bool{}
	for org, tok := range tokens {
		mustGet(t, h, "/api/v1/me", tok)
		list := mustGet(t, h, "/api/v1/curricula?per_page=100", tok)
		for _, r := range arr(t, list, "data") {
			a := obj(t, r, "attributes")
			switch {
			case a["title"] != nil:
				shapes[dataset.ShapeAlternate] = true
			case a["name"] != nil:
				shapes[dataset.ShapeFull] = true
			}
		}
		var mine int
		for _, c := range ds.Curricula {
			if ix.OrganizationOf(c.ID) == org {
				mine++
			}
		}
		if got := num(t, list, "meta", "total_count"); got != mine {
			t.Errorf("org %s: total_count %d, want %d", org, got, mine)
		}
	}
	if !shapes[dataset.ShapeAlternate] || !shapes[dataset.ShapeFull] {
		t.Errorf("sample shapes served: %v, want both", shapes)
	}
	for _, c := range ds.Curricula {
		tok := tokens[ix.OrganizationOf(c.ID)]
		p := "/api/v1/curricula/" + url.PathEscape(c.ID)
		for _, suffix := range []string{"", "/variants", "/locales", "/resolved"} {
			mustGet(t, h, p+suffix, tok)
		}
		tree, err := ix.Resolve(c.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range tree.Roots {
			mustGet(t, h, "/api/v1/content_nodes/"+url.PathEscape(n.ID), tok)
			mustGet(t, h, "/api/v1/content_nodes/"+url.PathEscape(n.ID)+"/resolved", tok)
		}
		if c.Parent != "" {
			continue
		}
		// Every curriculum of the family, in every locale, through its base.
		family := append([]string{c.ID}, ix.Descendants(c.ID)...)
		for _, id := range family {
			v := ix.Curriculum(id)
			for _, l := range ix.Locales(id) {
				q := url.Values{"locale": {l.Code}}
				if id != c.ID {
					q.Set("variant", v.Name)
				}
				body := mustGet(t, h, p+"/resolved?"+q.Encode(), tok)
				chain := arr(t, body, "meta", "variant_chain")
				if len(chain) != len(ix.Chain(id)) || chain[0] != c.Name || chain[len(chain)-1] != v.Name {
					t.Errorf("%s variant %q locale %s: variant_chain %v", c.ID, v.Name, l.Code, chain)
				}
				if str(t, body, "meta", "locale") != l.Code || str(t, body, "data", "id") != id {
					t.Errorf("%s variant %q locale %s: meta %v", c.ID, v.Name, l.Code, body["meta"])
				}
				if got := num(t, body, "meta", "node_count"); got != ix.NodeCount(id) {
					t.Errorf("%s variant %q: node_count %d, want %d", c.ID, v.Name, got, ix.NodeCount(id))
				}
			}
		}
	}
}
