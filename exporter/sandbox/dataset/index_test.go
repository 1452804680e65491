package dataset

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// broken returns the tiny dataset changed by fn.
func broken(t *testing.T, fn func(*Dataset)) *Dataset {
	t.Helper()
	ds, err := Open("testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	fn(ds)
	return ds
}

func curriculum(ds *Dataset, id string) *Curriculum {
	for i := range ds.Curricula {
		if ds.Curricula[i].ID == id {
			return &ds.Curricula[i]
		}
	}
	panic("no curriculum " + id)
}

func TestNewIndexRejects(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Dataset)
		want string
	}{
		{"duplicate node id", func(ds *Dataset) {
			c := curriculum(ds, "v1")
			c.Additions = append(c.Additions, Addition{Node: Node{ID: "u1", Title: "x", NodeType: "unit"}})
		}, `node "u1": duplicate id`},
		{"unknown parent", func(ds *Dataset) { curriculum(ds, "v2").Parent = "nope" }, `unknown parent "nope"`},
		{"cycle", func(ds *Dataset) { curriculum(ds, "v1").Parent = "v2" }, "cycle"},
		{"override of missing node", func(ds *Dataset) {
			c := curriculum(ds, "v1")
			c.Overrides = append(c.Overrides, Override{Node: "d0", Title: "x"})
		}, `override of node "d0", which it does not inherit`},
		{"addition under missing node", func(ds *Dataset) {
			c := curriculum(ds, "v1")
			c.Additions = append(c.Additions, Addition{Parent: "zz", Node: Node{ID: "new", Title: "x", NodeType: "unit"}})
		}, `under "zz"`},
		{"unknown node type", func(ds *Dataset) { curriculum(ds, "b1").Nodes[0].NodeType = "chapter" }, `unknown node_type "chapter"`},
		{"translation into locale not enabled", func(ds *Dataset) {
			curriculum(ds, "b1").Translations["fr"] = map[string]Translation{"u1": {Title: "Unité"}}
		}, `"fr", which is not an enabled locale`},
		{"translation into primary locale", func(ds *Dataset) {
			curriculum(ds, "b1").Translations["en"] = map[string]Translation{"u1": {Title: "x"}}
		}, "primary locale"},
		{"translation of unknown node", func(ds *Dataset) {
			curriculum(ds, "b1").Translations["es"]["d0"] = Translation{Title: "x"}
		}, `node "d0", which is not in its tree`},
		{"duplicate variant name", func(ds *Dataset) { curriculum(ds, "v2").Name = "Region" }, `share the name "Region"`},
		{"primary locale not enabled", func(ds *Dataset) { curriculum(ds, "b1").PrimaryLocale = "de" }, "primary_locale"},
		{"bad locale code", func(ds *Dataset) { curriculum(ds, "b1").Locales[1].Code = "es es" }, "not a language tag"},
		{"unknown organization", func(ds *Dataset) { curriculum(ds, "b1").Organization = "org-z" }, `unknown organization "org-z"`},
		{"token of unknown user", func(ds *Dataset) { ds.Tokens[0].User = "ghost" }, `unknown user "ghost"`},
		{"bad shape", func(ds *Dataset) { curriculum(ds, "v1").Shape = "compact" }, `shape "compact"`},
		{"variant with nodes", func(ds *Dataset) {
			curriculum(ds, "v1").Nodes = []Node{{ID: "q", Title: "q", NodeType: "unit"}}
		}, "a variant adds nodes with additions"},
		{"updated before created", func(ds *Dataset) {
			c := curriculum(ds, "b1")
			c.UpdatedAt = c.CreatedAt.Add(-time.Hour)
		}, "updated_at before created_at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewIndex(broken(t, tt.edit))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("NewIndex error = %v, want a *ValidationError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

func TestValidationErrorNeverPrintsTokens(t *testing.T) {
	_, err := NewIndex(broken(t, func(ds *Dataset) {
		ds.Tokens = append(ds.Tokens, Token{Token: "tok-a", User: "u-a"}, Token{Token: "secret-xyz", User: "ghost"})
	}))
	if err == nil || strings.Contains(err.Error(), "tok-a") || strings.Contains(err.Error(), "secret-xyz") {
		t.Fatalf("error = %v; want an error that names no token", err)
	}
}

func TestDecodeRejectsUnknownFieldsAndTrailingData(t *testing.T) {
	for _, in := range []string{
		`{"curricula": [{"id": "c", "nmae": "typo"}]}`,
		`{"organizations": []} {"x": 1}`,
		`{"organizations": [`,
	} {
		if _, err := Decode(strings.NewReader(in)); err == nil {
			t.Errorf("Decode(%q) accepted it", in)
		}
	}
}

func TestSyntheticIsValidAndRepeatable(t *testing.T) {
	o := SyntheticOptions{Curricula: 4, Variants: 3, Locales: 4, Nodes: 120, Depth: 3, Seed: 9}
	a, b := Synthetic(o), Synthetic(o)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatal("Synthetic is not repeatable for the same options")
	}
	ix, err := NewIndex(a)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(a.Curricula); got != 16 {
		t.Fatalf("curricula = %d, want 4 bases + 12 variants", got)
	}
	tr, err := ix.Resolve("1000", "")
	if err != nil {
		t.Fatal(err)
	}
	if tr.NodeCount != 120 || tr.MaxDepth != 2 {
		t.Fatalf("base tree: %d nodes, max depth %d; want 120, 2", tr.NodeCount, tr.MaxDepth)
	}
	// Variants nest: v2 is a variant of v1.
	if chain := ix.Chain("1000-v2"); len(chain) != 3 {
		t.Fatalf("chain of 1000-v2 has %d curricula, want 3", len(chain))
	}
	if c := ix.Curriculum("curriculum_1002"); c == nil || c.Shape != ShapeAlternate {
		t.Fatal("every third synthetic curriculum should use the alternate shape")
	}
}

func TestParseSynthetic(t *testing.T) {
	o, err := ParseSynthetic("curricula=50,variants=4,locales=6,nodes=2000")
	if err != nil || o.Curricula != 50 || o.Variants != 4 || o.Locales != 6 || o.Nodes != 2000 || o.Depth != DefaultSynthetic().Depth {
		t.Fatalf("ParseSynthetic = %+v, %v", o, err)
	}
	if o, err := ParseSynthetic("body=1"); err != nil || o.Body != 1 {
		t.Fatalf("ParseSynthetic(body=1) = %+v, %v", o, err)
	}
	for _, bad := range []string{"nodes", "nodes=x", "pages=3", "locales=99", "curricula=0", "depth=-1", "body=2"} {
		if _, err := ParseSynthetic(bad); err == nil {
			t.Errorf("ParseSynthetic(%q) accepted it", bad)
		}
	}
}

// TestSyntheticBodyCarriesRealContent checks the mix body=1 promises (a
// list and inline math everywhere, code in every second node, a display
// formula in every third, an image in every fourth), that formulas differ
// from node to node, and that body=0 keeps the two-sentence descriptions.
func TestSyntheticBodyCarriesRealContent(t *testing.T) {
	descs := func(body int) []string {
		ds := Synthetic(SyntheticOptions{Curricula: 1, Locales: 1, Nodes: 120, Depth: 3, Seed: 1, Body: body})
		var out []string
		var walk func([]Node)
		walk = func(ns []Node) {
			for _, n := range ns {
				var d string
				if err := json.Unmarshal(n.Attributes["description"], &d); err != nil {
					t.Fatalf("node %s: description: %v", n.ID, err)
				}
				out = append(out, d)
				walk(n.Children)
			}
		}
		walk(ds.Curricula[0].Nodes)
		return out
	}
	count := func(ds []string, sub string) int {
		n := 0
		for _, d := range ds {
			if strings.Contains(d, sub) {
				n++
			}
		}
		return n
	}
	rich, plain := descs(1), descs(0)
	for _, c := range []struct {
		what     string
		sub      string
		min, max int
	}{
		{"a list", "\n- ", 120, 120},
		{"inline math", "$ and check", 120, 120},
		{"a code block", "```python", 60, 60},
		{"a display formula", "\\begin{aligned}", 40, 40},
		{"an image", "](https://sandbox.invalid/images/", 30, 30},
	} {
		if n := count(rich, c.sub); n < c.min || n > c.max {
			t.Errorf("body=1: %d of 120 descriptions hold %s, want %d", n, c.what, c.min)
		}
		if n := count(plain, c.sub); n != 0 {
			t.Errorf("body=0: %d descriptions hold %s, want none", n, c.what)
		}
	}
	formulas := map[string]bool{}
	for _, d := range rich {
		if _, f, ok := strings.Cut(d, "$$"); ok {
			f, _, _ = strings.Cut(f, "$$")
			formulas[f] = true
		}
	}
	if len(formulas) < 35 {
		t.Errorf("body=1: %d distinct display formulas in 40 nodes; a real curriculum repeats few", len(formulas))
	}
}

func TestDeepTreeResolves(t *testing.T) {
	ds := Synthetic(SyntheticOptions{Curricula: 1, Locales: 2, Nodes: 10_000, Depth: 10_000, Seed: 1})
	ix, err := NewIndex(ds)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ix.Resolve("1000", "es")
	if err != nil {
		t.Fatal(err)
	}
	if tr.MaxDepth != 9_999 || tr.NodeCount != 10_000 {
		t.Fatalf("deep tree: depth %d, %d nodes", tr.MaxDepth, tr.NodeCount)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"organizations":[{"id":"o","name":"O"}],"users":[{"id":"u","organization":"o"}],"tokens":[{"token":"t","user":"u"}],"node_types":[{"name":"unit","display_name":"Unit"}],"curricula":[{"id":"c","organization":"o","name":"C","primary_locale":"en","locales":[{"code":"en","name":"English"}],"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","nodes":[{"id":"n","title":"N","node_type":"unit"}]},{"id":"v","parent":"c","name":"V","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","additions":[{"position":9,"node":{"id":"m","title":"M","node_type":"unit"}}],"overrides":[{"node":"n","attributes":{"a":null}}]}]}`))
	f.Add([]byte(`{"curricula":[{"id":"a","parent":"b"},{"id":"b","parent":"a"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := Decode(strings.NewReader(string(data)))
		if err != nil {
			return
		}
		ix, err := NewIndex(ds)
		if err != nil {
			return
		}
		for _, c := range ds.Curricula {
			for _, l := range ix.Locales(c.ID) {
				if _, err := ix.Resolve(c.ID, l.Code); err != nil {
					t.Fatalf("validated dataset fails to resolve %s/%s: %v", c.ID, l.Code, err)
				}
			}
			if _, err := ix.Progress(c.ID); err != nil {
				t.Fatal(err)
			}
		}
	})
}
