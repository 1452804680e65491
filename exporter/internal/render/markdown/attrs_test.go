package markdown

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/content"
)

// attributePage writes a node with the given attributes and one child,
// and returns the body of its page.
func attributePage(tb testing.TB, attrs map[string]json.RawMessage) string {
	tb.Helper()
	n := testNode("n1", "Node", testNode("c1", "Child"))
	n.Attributes = attrs
	tr := testTree(n)
	tr.Locale = "en"
	w, e := write(tb, tr, Options{})
	_, body := splitFrontMatter(tb, w.bundleFiles(e)["01-node/index.md"])
	return body
}

// TestAttributesAgree renders attributes on the website (package content)
// and in the Markdown bundle, the latter as GitHub shows it, and checks
// that both chose the same form: a table, a list of records (a list per
// record), terms (bold terms in Markdown) or a plain list.
func TestAttributesAgree(t *testing.T) {
	r := content.New()
	for _, tc := range []struct {
		name, raw string
		want      string // "table", "records", "terms" or "list"
	}{
		{"flat records", `[{"criterion":"C","points":30},{"criterion":"D","extra":true}]`, "table"},
		{"flat with null", `[{"criterion":"C","points":null}]`, "table"},
		{"blank term", `[{"term":"","definition":"D"}]`, "table"},
		{"eight columns", `[{"a":1,"b":2,"c":3,"d":4},{"e":5,"f":6,"g":7,"h":8}]`, "table"},
		{"nine columns", `[{"a":1,"b":2,"c":3,"d":4,"e":5},{"f":6,"g":7,"h":8,"i":9}]`, "records"},
		{"list in a record", `[{"criterion":"C","levels":["a","b"]}]`, "records"},
		{"paragraphs in a record", `[{"criterion":"C\n\nmore"}]`, "records"},
		{"term on two lines", `[{"term":"T\nU","definition":"D"}]`, "records"},
		{"terms", `[{"term":"T","definition":"D"},{"word":"W","meaning":"M"}]`, "terms"},
		{"strings", `["a","b"]`, "list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			attrs := map[string]json.RawMessage{"k": json.RawMessage(tc.raw)}
			h, err := r.Node(attrs, "Node", nil, "n-")
			if err != nil {
				t.Fatal(err)
			}
			site := string(h)
			md := renderHTML(t, attributePage(t, attrs))
			for _, c := range []struct {
				form       string
				site, page bool
			}{
				{"table", strings.Contains(site, "<table"), strings.Contains(md, "<table>")},
				{"records", strings.Contains(site, `<ul class="records">`), strings.Contains(md, "<li>\n<ul>\n<li>")},
				{"terms", strings.Contains(site, `<dl class="terms">`), strings.Contains(md, "<li><strong>")},
			} {
				if c.site != (c.form == tc.want) || c.page != (c.form == tc.want) {
					t.Errorf("%s: website %v, Markdown %v; want %v\nwebsite:\n%s\nMarkdown:\n%s", c.form, c.site, c.page, c.form == tc.want, site, md)
				}
			}
		})
	}
}

// FuzzAttributes writes a page with one arbitrary member under an
// arbitrary key, and checks that whatever the member holds, the page
// keeps its structure: the children's section is the last heading, its
// only item links to the child, and the page renders the same twice.
func FuzzAttributes(f *testing.F) {
	for _, s := range []struct{ key, raw string }{
		{"notes", "\"```\\nunclosed\""},
		{"rubric", `[{"criterion":"a | b","points":3},{"criterion":null}]`},
		{"levels", `[{"criterion":"<!--","levels":["</ul>","## x"]},{"x":"y\nz"}]`},
		{"vocabulary", `[{"term":"**","definition":"[d](javascript:x)\n\n# h"}]`},
		{"# key", `{"a":{"b":[1,2.5e3,true,null,"<script>"]}}`},
		{"deep", strings.Repeat("[", 50) + strings.Repeat("]", 50)},
		{"broken", `{"a": <script>}`},
		{"description", `"<pre>\n"`},
	} {
		f.Add(s.key, []byte(s.raw))
	}
	f.Fuzz(func(t *testing.T, key string, raw []byte) {
		attrs := map[string]json.RawMessage{key: raw}
		body := attributePage(t, attrs)
		if again := attributePage(t, attrs); again != body {
			t.Fatal("not deterministic")
		}
		info := inspect(t, renderHTML(t, body))
		h2 := info.headings[2]
		if len(h2) == 0 || h2[len(h2)-1] != "In this section" {
			t.Fatalf("the children's section is not last: %q\n%s", h2, body)
		}
		if got := info.items[len(info.items)-1]; len(got) != 1 || got[0].href != "01-child.md" {
			t.Fatalf("last list item %q, want the link to the child\n%s", got, body)
		}
	})
}
