package jsonbundle

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
)

// goldenTrees are the hand-built trees with a golden tree.json each.
var goldenTrees = []struct {
	name string
	tree func(reverse bool) *model.Tree
}{
	{"base-en", baseTree},
	{"texas-es", texasTree},
	{"houston-isd-ar", houstonTree},
}

func TestGolden(t *testing.T) {
	for _, g := range goldenTrees {
		t.Run(g.name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", g.name+".golden.json"), mustEncode(t, g.tree(false)))
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestStable checks that the same tree gives the same bytes, also when
// its attribute maps were filled in another order, and that Encode does
// not change the tree.
func TestStable(t *testing.T) {
	for _, g := range goldenTrees {
		t.Run(g.name, func(t *testing.T) {
			tr := g.tree(false)
			first := mustEncode(t, tr)
			for i := 0; i < 5; i++ {
				if again := mustEncode(t, tr); !bytes.Equal(first, again) {
					t.Fatalf("encoding %d differs from the first:\n%s", i+2, golden.FirstDiff(first, again))
				}
			}
			if rev := mustEncode(t, g.tree(true)); !bytes.Equal(first, rev) {
				t.Fatalf("attribute maps filled in reverse order give other bytes:\n%s", golden.FirstDiff(first, rev))
			}
			if again := mustEncode(t, g.tree(false)); !bytes.Equal(first, again) {
				t.Fatal("a second, equal tree gives other bytes")
			}
		})
	}
}

// TestCanonicalFormatting checks that the output is exactly what
// encoding/json's indenter makes of it: two spaces a level, ": " after
// keys, empty objects and arrays as {} and [], a final newline.
func TestCanonicalFormatting(t *testing.T) {
	for _, g := range goldenTrees {
		out := mustEncode(t, g.tree(false))
		if want := reindented(t, out); !bytes.Equal(out, want) {
			t.Errorf("%s: not in canonical indentation:\n%s", g.name, golden.FirstDiff(want, out))
		}
		if !bytes.HasSuffix(out, []byte("}\n")) || bytes.HasSuffix(out, []byte("\n\n")) {
			t.Errorf("%s: does not end in exactly one newline", g.name)
		}
	}
}

// TestKeyOrder checks the order of members at the top level and in a
// node, as the contract lists them.
func TestKeyOrder(t *testing.T) {
	out := mustEncode(t, texasTree(false))
	dec := json.NewDecoder(bytes.NewReader(out))
	keysAt := func(depth int) []string {
		// Collect the keys of the first object that opens at depth.
		var keys []string
		d, inObj := 0, []bool{}
		expectKey := false
		for {
			tok, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			switch tok {
			case json.Delim('{'):
				d++
				inObj = append(inObj, true)
				expectKey = true
				continue
			case json.Delim('['):
				d++
				inObj = append(inObj, false)
				continue
			case json.Delim('}'), json.Delim(']'):
				if d == depth && len(keys) > 0 {
					return keys
				}
				d--
				inObj = inObj[:len(inObj)-1]
			default:
				if s, ok := tok.(string); ok && expectKey && inObj[len(inObj)-1] {
					if d == depth {
						keys = append(keys, s)
					}
					expectKey = false
					continue
				}
			}
			expectKey = len(inObj) > 0 && inObj[len(inObj)-1]
		}
	}
	top := strings.Join(keysAt(1), " ")
	if want := "format curriculum_id curriculum_name variant variant_id variant_chain locale primary_locale etag resolved_at node_count nodes"; top != want {
		t.Errorf("top-level keys\n got %s\nwant %s", top, want)
	}
	dec = json.NewDecoder(bytes.NewReader(out))
	nodeKeys := strings.Join(keysAt(3), " ")
	if want := "id title node_type ordinal_label type_display workflow_status position depth attributes inheritance translation path children"; nodeKeys != want {
		t.Errorf("node keys\n got %s\nwant %s", nodeKeys, want)
	}
}

// bundle is tree.json read back with encoding/json.
type bundle struct {
	Format         string   `json:"format"`
	CurriculumID   string   `json:"curriculum_id"`
	CurriculumName string   `json:"curriculum_name"`
	Variant        string   `json:"variant"`
	VariantID      string   `json:"variant_id"`
	VariantChain   []string `json:"variant_chain"`
	Locale         string   `json:"locale"`
	PrimaryLocale  string   `json:"primary_locale"`
	ETag           string   `json:"etag"`
	ResolvedAt     string   `json:"resolved_at"`
	NodeCount      int      `json:"node_count"`
	Nodes          []*bnode `json:"nodes"`
}

type bnode struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	NodeType struct {
		Name        string `json:"name"`
		DisplayName string `json:"display_name"`
		Icon        string `json:"icon"`
	} `json:"node_type"`
	OrdinalLabel   string                     `json:"ordinal_label"`
	TypeDisplay    string                     `json:"type_display"`
	WorkflowStatus string                     `json:"workflow_status"`
	Position       int                        `json:"position"`
	Depth          int                        `json:"depth"`
	Attributes     map[string]json.RawMessage `json:"attributes"`
	Inheritance    struct {
		IsInherited      bool   `json:"is_inherited"`
		SourceCurriculum string `json:"source_curriculum"`
		OverrideLevel    int    `json:"override_level"`
	} `json:"inheritance"`
	Translation struct {
		IsTranslated bool   `json:"is_translated"`
		Status       string `json:"status"`
		SourceLocale string `json:"source_locale"`
	} `json:"translation"`
	Path     string   `json:"path"`
	Children []*bnode `json:"children"`
}

func readBundle(t testing.TB, data []byte) *bundle {
	t.Helper()
	var b bundle
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		t.Fatalf("decode tree.json: %v", err)
	}
	return &b
}

// TestRoundTrip reads a bundle back and compares every field with the
// model, attributes by value.
func TestRoundTrip(t *testing.T) {
	for _, g := range goldenTrees {
		t.Run(g.name, func(t *testing.T) {
			tr := g.tree(false)
			b := readBundle(t, mustEncode(t, tr))
			if b.Format != Format || b.CurriculumID != tr.CurriculumID || b.CurriculumName != tr.CurriculumName ||
				b.Variant != tr.Variant || b.VariantID != tr.VariantID || b.Locale != tr.Locale ||
				b.PrimaryLocale != tr.PrimaryLocale || b.ETag != tr.ETag ||
				strings.Join(b.VariantChain, "|") != strings.Join(tr.VariantChain, "|") {
				t.Errorf("header differs: %+v", b)
			}
			if want := tr.ResolvedAt.UTC().Format(time.RFC3339Nano); b.ResolvedAt != want {
				t.Errorf("resolved_at %q, want %q", b.ResolvedAt, want)
			}
			if b.NodeCount != tr.Count() {
				t.Errorf("node_count %d, tree has %d", b.NodeCount, tr.Count())
			}
			compareNodes(t, tr.Export, "", b.Nodes, tr.Nodes)
		})
	}
}

func compareNodes(t *testing.T, e model.Export, at string, got []*bnode, want []*model.Node) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d nodes, want %d", at, len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.ID || g.Title != w.Title || g.NodeType.Name != w.NodeType.Name ||
			g.NodeType.DisplayName != w.NodeType.DisplayName || g.NodeType.Icon != w.NodeType.Icon ||
			g.OrdinalLabel != w.OrdinalLabel || g.TypeDisplay != w.TypeDisplay ||
			g.WorkflowStatus != w.WorkflowStatus || g.Position != w.Position || g.Depth != w.Depth ||
			g.Inheritance.IsInherited != w.Inheritance.IsInherited ||
			g.Inheritance.SourceCurriculum != w.Inheritance.SourceCurriculum ||
			g.Inheritance.OverrideLevel != w.Inheritance.OverrideLevel ||
			g.Translation.IsTranslated != w.Translation.IsTranslated ||
			g.Translation.Status != w.Translation.Status ||
			g.Translation.SourceLocale != w.Translation.SourceLocale || g.Path != layout.NodePage(e, w.Segment) {
			t.Errorf("%s/%d: node %+v differs from %+v", at, i, g, w)
		}
		if len(g.Attributes) != len(w.Attributes) {
			t.Errorf("%s: %d attributes, want %d", w.ID, len(g.Attributes), len(w.Attributes))
		}
		for k, raw := range w.Attributes {
			if !sameJSON(t, g.Attributes[k], raw) {
				t.Errorf("%s: attribute %q is %s, want %s", w.ID, k, g.Attributes[k], raw)
			}
			if !sameTokens(g.Attributes[k], raw) {
				t.Errorf("%s: attribute %q changed beyond whitespace: %s, want %s", w.ID, k, g.Attributes[k], raw)
			}
		}
		compareNodes(t, e, at+"/"+w.ID, g.Children, w.Children)
	}
}

// sameJSON reports whether a and b decode to equal values, numbers
// compared by their spelling.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	decode := func(data []byte) any {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("decode %s: %v", data, err)
		}
		return v
	}
	va, vb := decode(a), decode(b)
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return bytes.Equal(ja, jb)
}

// sameTokens reports whether a and b differ at most in whitespace between
// tokens (so the value is kept "exactly as received").
func sameTokens(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// TestNoHTMLEscaping checks that HTML-looking text stays literal: valid
// JSON, and what a reader of the file sees.
func TestNoHTMLEscaping(t *testing.T) {
	out := mustEncode(t, baseTree(false))
	for _, want := range []string{
		`"<script>alert('hi')</script>"`,
		`"<p>Solve <b>x</b> &amp; y &lt; 3 & z > 1</p>"`,
		`"Equations & inequalities"`,
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
	for _, bad := range []string{`\u003c`, `\u003e`, `\u0026`} {
		if bytes.Contains(out, []byte(bad)) {
			t.Errorf("output HTML-escapes: contains %s", bad)
		}
	}
}

// TestUnicode checks that Arabic and Japanese text is written as UTF-8,
// not escaped, and that U+2028 in a model string is escaped as
// encoding/json does.
func TestUnicode(t *testing.T) {
	tr := houstonTree(false)
	tr.Nodes[0].Title = "المعادلات\u2028الخطية"
	out := mustEncode(t, tr)
	for _, want := range []string{"مختبر هيوستن — 方程式ラボ", `"ja": "一次方程式"`, `"✅ 🧮"`, `"المعادلات\u2028الخطية"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
	if b := readBundle(t, out); b.Nodes[0].Title != tr.Nodes[0].Title {
		t.Errorf("title read back as %q", b.Nodes[0].Title)
	}
}

func TestNodeCount(t *testing.T) {
	for _, tr := range []*model.Tree{baseTree(false), texasTree(false), houstonTree(false), chain(7), synthetic(100)} {
		b := readBundle(t, mustEncode(t, tr))
		if b.NodeCount != tr.Count() {
			t.Errorf("%s: node_count %d, want %d", tr.Locale, b.NodeCount, tr.Count())
		}
	}
}

// TestEmpty encodes a tree without nodes and a node without attributes or
// children, and an attribute whose raw value is empty (written as null).
func TestEmpty(t *testing.T) {
	tr := baseTree(false)
	tr.Nodes = nil
	out := mustEncode(t, tr)
	if !bytes.Contains(out, []byte(`"node_count": 0,`)) || !bytes.Contains(out, []byte(`"nodes": []`)) {
		t.Errorf("empty tree:\n%s", out)
	}

	tr = chain(1)
	tr.Nodes[0].Attributes = map[string]json.RawMessage{"gone": nil, "blank": json.RawMessage(" \n")}
	out = mustEncode(t, tr)
	if !bytes.Contains(out, []byte(`"blank": null,`)) || !bytes.Contains(out, []byte(`"gone": null`)) {
		t.Errorf("empty attribute values not written as null:\n%s", out)
	}
	tr.Nodes[0].Attributes = nil
	out = mustEncode(t, tr)
	if !bytes.Contains(out, []byte(`"attributes": {},`)) || !bytes.Contains(out, []byte(`"children": []`)) {
		t.Errorf("nil attributes or children:\n%s", out)
	}
}

// TestInvalidUTF8 checks that invalid bytes in model strings and in
// attribute strings become U+FFFD, so the file is always valid UTF-8.
func TestInvalidUTF8(t *testing.T) {
	tr := chain(1)
	tr.Nodes[0].Title = "bad\xffbyte"
	tr.Nodes[0].Attributes = map[string]json.RawMessage{"k\xfe": json.RawMessage("[\"x\xff\xfey\"]")}
	out := mustEncode(t, tr)
	b := readBundle(t, out)
	if b.Nodes[0].Title != "bad\uFFFDbyte" {
		t.Errorf("title %q", b.Nodes[0].Title)
	}
	var got bytes.Buffer
	if err := json.Compact(&got, b.Nodes[0].Attributes["k\uFFFD"]); err != nil || got.String() != `["x\ufffd\ufffdy"]` {
		t.Errorf("attribute %q (%v)", got.String(), err)
	}
}

// TestEncodeErrors checks that Encode refuses what would break the
// schema, naming the node and its location.
func TestEncodeErrors(t *testing.T) {
	cyclic := func() *model.Tree {
		tr := chain(100) // deeper than model.Tree.Visit starts watching for cycles
		var last *model.Node
		tr.Walk(func(n *model.Node) bool { last = n; return true })
		last.Children = []*model.Node{tr.Nodes[0]}
		return tr
	}
	shortCycle := func() *model.Tree {
		tr := chain(2)
		tr.Nodes[0].Children[0].Children = []*model.Node{tr.Nodes[0]}
		return tr
	}
	first := func(f func(n *model.Node)) func() *model.Tree {
		return func() *model.Tree {
			tr := texasTree(false)
			f(tr.Nodes[0].Children[1])
			return tr
		}
	}
	top := func(f func(tr *model.Tree)) func() *model.Tree {
		return func() *model.Tree {
			tr := texasTree(false)
			f(tr)
			return tr
		}
	}
	for _, tc := range []struct {
		name string
		tree func() *model.Tree
		want string
	}{
		{"nil tree", func() *model.Tree { return nil }, "nil tree"},
		{"nil node", first(func(n *model.Node) { n.Children = []*model.Node{nil} }), "nil node at /nodes/0/children/1/children/0"},
		{"cycle", cyclic, "is its own ancestor"},
		{"short cycle", shortCycle, "is its own ancestor"},
		{"empty id", first(func(n *model.Node) { n.ID = "" }), `node "" at /nodes/0/children/1: empty id`},
		{"negative position", first(func(n *model.Node) { n.Position = -1 }), `node "alg-u1-l2" at /nodes/0/children/1: negative position`},
		{"negative depth", first(func(n *model.Node) { n.Depth = -1 }), "negative depth"},
		{"negative override", first(func(n *model.Node) { n.Inheritance.OverrideLevel = -2 }), "negative override level"},
		{"bad source locale", first(func(n *model.Node) { n.Translation.SourceLocale = "español" }), "source locale"},
		{"segment dotdot", first(func(n *model.Node) { n.Segment = ".." }), `path "algebra-1/texas/es/../index.html"`},
		{"segment dot", first(func(n *model.Node) { n.Segment = "." }), "path"},
		{"segment climbs", first(func(n *model.Node) { n.Segment = "../../../etc" }), "path"},
		{"segment absolute", first(func(n *model.Node) { n.Segment = "/etc" }), "path"},
		{"segment empty", first(func(n *model.Node) { n.Segment = "" }), "path"},
		{"segment backslash", first(func(n *model.Node) { n.Segment = `x\y` }), "path"},
		{"segment colon", first(func(n *model.Node) { n.Segment = "javascript:alert(1)" }), "path"},
		{"segment query", first(func(n *model.Node) { n.Segment = "x?y" }), "path"},
		{"segment control", first(func(n *model.Node) { n.Segment = "x\ny" }), "path"},
		{"export folder dotdot", top(func(tr *model.Tree) { tr.CurriculumSlug = ".." }), "path"},
		{"bad attribute", first(func(n *model.Node) { n.Attributes["broken"] = json.RawMessage(`{"a":`) }),
			`node "alg-u1-l2" at /nodes/0/children/1: attribute "broken": value is not valid JSON`},
		{"two values", first(func(n *model.Node) { n.Attributes["two"] = json.RawMessage(`1 2`) }), "not valid JSON"},
		{"empty curriculum id", top(func(tr *model.Tree) { tr.CurriculumID = "" }), "empty curriculum id"},
		{"empty variant id", top(func(tr *model.Tree) { tr.VariantID = "" }), "empty variant id"},
		{"empty chain", top(func(tr *model.Tree) { tr.VariantChain = nil }), "empty variant chain"},
		{"bad locale", top(func(tr *model.Tree) { tr.Locale = "es_MX" }), `locale "es_MX" is not a language tag`},
		{"bad primary locale", top(func(tr *model.Tree) { tr.PrimaryLocale = "" }), "primary locale"},
		{"year 10000", top(func(tr *model.Tree) { tr.ResolvedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }), "resolved_at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Encode(tc.tree())
			if err == nil {
				t.Fatalf("no error; wrote:\n%.400s", out)
			}
			if out != nil {
				t.Error("bytes returned with the error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestDeepTree encodes a chain 10,000 nodes deep: no recursion, memory
// linear in the depth (indentation is capped), and the result validates
// with the schema (the Validator reads without recursion too).
func TestDeepTree(t *testing.T) {
	const depth = 10_000
	tr := chain(depth)
	out := mustEncode(t, tr)
	if n := len(out); n > 40<<20 {
		t.Fatalf("%d-deep chain gives %d bytes; indentation is not capped", depth, n)
	}
	// The ids come in order, each once, nested ever deeper.
	rest := out
	for i := 0; i < depth; i++ {
		id := []byte(`"id": "n` + itoa(i) + `",`)
		at := bytes.Index(rest, id)
		if at < 0 {
			t.Fatalf("node n%d missing or out of order", i)
		}
		rest = rest[at+len(id):]
	}
	if !bytes.Contains(out, []byte(`"node_count": 10000,`)) {
		t.Fatal("node_count is not 10000")
	}
	if opened := bytes.Count(out, []byte("\"children\": [\n")); opened != depth-1 {
		t.Fatalf("%d non-empty children lists, want %d", opened, depth-1)
	}
}
