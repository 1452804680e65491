package markdown

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/model"
)

// testExport is the identity of a hand-made export.
func testExport() model.Export {
	return model.Export{
		CurriculumID: "101", CurriculumName: "Algebra 1", Variant: "Texas", VariantID: "111",
		Locale: "es", PrimaryLocale: "en",
		CurriculumSlug: "algebra-1", VariantSlug: "texas", LocaleSlug: "es",
	}
}

// testTree returns a hand-made tree of the given root nodes.
func testTree(nodes ...*model.Node) *model.Tree {
	return &model.Tree{
		Export:       testExport(),
		VariantChain: []string{"Algebra 1", "Texas"},
		ETag:         `"abc"`,
		ResolvedAt:   time.Date(2026, 2, 24, 18, 20, 0, 0, time.UTC),
		Nodes:        nodes,
	}
}

// testNode returns a published lesson.
func testNode(id, title string, kids ...*model.Node) *model.Node {
	return &model.Node{
		ID: id, Title: title,
		NodeType:       model.NodeType{Name: "lesson", DisplayName: "Lesson", Icon: "file"},
		TypeDisplay:    "Lesson",
		WorkflowStatus: model.StatusPublished,
		Attributes:     map[string]json.RawMessage{},
		Children:       kids,
	}
}

// hostile are titles, ids and keys that try to break paths, front matter
// or Markdown.
var hostile = []string{
	"../../etc/passwd", "..", ".", "/abs/path", `C:\Windows\system32`, "a/b", `a\b`,
	"nul\x00byte", "ctrl\x01\x02\x1b[31mred\x7f\u0085", "tab\tand\nnewline\r\nCRLF\rCR",
	"\u202eevil\u202c.md", "\u2066isolate\u2069", "\u200fRLM \u200dZWJ \u200bZWSP",
	"](javascript:alert(1))", "[link](http://evil.example)", "<script>alert(1)</script>",
	"<img src=x onerror=alert(1)>", "# not a heading", "- not a list", "+ not a list", "* not a list",
	"1. not a list", "2) not a list", "---", "***", "===", "```", "~~~", "<!-- open comment",
	"    indented", "> quote", "*emphasis* _under_ **strong**", "`code`", "{#custom-id}",
	"a | b | c", "~~strike~~", "&amp; &lt; &#x41;", `back\slash\`, "trailing #", "title: colon",
	`"quoted" 'single'`, "@at *star", "!bang", "![image](x.png)", "%percent", "key: value\n---\nx: y",
	"...", "--- \n", "\ufeffBOM", "\u2028line\u2029sep", "emoji 🧮", "العربية", "日本語のタイトル",
	"", "   ", "\xff\xfe invalid utf8", "yes", "no", "on", "null", "~", "0777", "1e3", "- [x] task",
	"[^note]", "<https://autolink.example>", "\\", "[x]: https://evil.example", "&", "<", ">",
	strings.Repeat("long ", 300), "&#x202E;", "\\[", "_", "{{< shortcode >}}",
}

// normTitle is how a title shows in rendered Markdown: invalid UTF-8 as
// U+FFFD, control characters as spaces, no surrounding space.
func normTitle(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// shown is the text a page shows for a node with title and id.
func shown(title, id string) string {
	switch {
	case normTitle(title) != "":
		return normTitle(title)
	case normTitle(id) != "":
		return normTitle(id)
	}
	return "(untitled)"
}

// hostileTree has one section per hostile string, titled and identified
// by it, each with one child titled by the next string.
func hostileTree() *model.Tree {
	var roots []*model.Node
	for i, s := range hostile {
		next := hostile[(i+1)%len(hostile)]
		roots = append(roots, testNode(s, s, testNode(next+"/child", next)))
	}
	roots = append(roots, testNode(strings.Repeat("id", 1<<19), strings.Repeat("Ti\u202etle ", 1<<17)))
	return testTree(roots...)
}

// TestHostileTitles writes a tree whose titles and ids try to break out of
// the bundle folder or out of the Markdown around them, and checks the
// paths, the links and how pages render.
func TestHostileTitles(t *testing.T) {
	tr := hostileTree()
	for _, hugo := range []bool{false, true} {
		t.Run("hugo="+strconv.FormatBool(hugo), func(t *testing.T) {
			w, e := write(t, tr, Options{Hugo: hugo})
			for _, rel := range w.names() {
				if !safeRel(e, rel) {
					t.Errorf("unsafe path %q", rel)
				}
			}
			files := w.bundleFiles(e)
			checkLinks(t, files)

			// The table of contents: one item per node, each with exactly
			// one link, to a file of the bundle, showing the title.
			root := "index.md"
			if hugo {
				root = "_index.md"
			}
			_, body := splitFrontMatter(t, files[root])
			rendered := renderHTML(t, body)
			if strings.Contains(rendered, "raw HTML omitted") {
				t.Error("a title reads as raw HTML in the table of contents")
			}
			info := inspect(t, rendered)
			var want []string
			tr.Walk(func(n *model.Node) bool {
				want = append(want, "Lesson: "+shown(n.Title, n.ID))
				return true
			})
			if len(info.items) != len(want) {
				t.Fatalf("table of contents has %d items, want %d", len(info.items), len(want))
			}
			seen := map[string]bool{}
			for i, as := range info.items {
				if len(as) != 1 {
					t.Errorf("item %d has %d links, want 1: %q", i, len(as), as)
					continue
				}
				if as[0].text != want[i] {
					t.Errorf("item %d shows %.100q, want %.100q", i, as[0].text, want[i])
				}
				if _, ok := files[as[0].href]; !ok || seen[as[0].href] {
					t.Errorf("item %d links %q: not a file, or linked twice", i, as[0].href)
				}
				seen[as[0].href] = true
			}
			for _, el := range []string{"script", "img", "h3", "blockquote", "pre", "code", "table", "hr", "em", "strong", "del", "input"} {
				if info.elements[el] > 0 {
					t.Errorf("table of contents renders %d <%s> from titles", info.elements[el], el)
				}
			}

			// Node pages: the heading shows the title, and the section
			// list links the child.
			for name, data := range files {
				if name == root || name == "SUMMARY.md" {
					continue
				}
				yml, body := splitFrontMatter(t, data)
				var fm nodeFrontMatter
				decodeYAML(t, yml, &fm)
				rendered := renderHTML(t, body)
				if strings.Contains(rendered, "raw HTML omitted") {
					t.Errorf("%s: a title reads as raw HTML", name)
				}
				info := inspect(t, rendered)
				if !hugo {
					if h := info.headings[1]; len(h) != 1 || h[0] != shown(fm.Title, fm.ID) {
						t.Errorf("%s: h1 %.100q, want %.100q", name, h, shown(fm.Title, fm.ID))
					}
				}
				if len(info.items) > 1 {
					t.Errorf("%s: %d list items, want at most the one child", name, len(info.items))
				}
				for _, el := range []string{"script", "img", "blockquote", "pre", "table", "hr", "h3", "em", "strong", "del"} {
					if info.elements[el] > 0 {
						t.Errorf("%s renders %d <%s> from titles", name, info.elements[el], el)
					}
				}
			}
		})
	}
}

// TestHostileExport rejects export folders that are not safe segments and
// trees that would make the walk endless.
func TestHostileExport(t *testing.T) {
	for _, s := range []string{"", ".", "..", "a/b", `a\b`, "a\x00", "a b", "ü"} {
		tr := testTree(testNode("n1", "One"))
		tr.LocaleSlug = s
		if _, err := Write(newMemWriter(), tr, Options{}); err == nil {
			t.Errorf("locale slug %q: no error", s)
		}
		tr = testTree(testNode("n1", "One"))
		tr.CurriculumSlug = s
		if _, err := Write(newMemWriter(), tr, Options{}); err == nil {
			t.Errorf("curriculum slug %q: no error", s)
		}
	}
	if _, err := Write(newMemWriter(), nil, Options{}); err == nil {
		t.Error("nil tree: no error")
	}
	if _, err := Write(newMemWriter(), testTree(testNode("n1", "One", nil)), Options{}); err == nil || !strings.Contains(err.Error(), "markdown bundle algebra-1/texas/es") {
		t.Errorf("nil node: error %v", err)
	}

	// A cycle deep in the tree.
	top := testNode("top", "Top")
	n := top
	for i := range 100 {
		c := testNode("n"+strconv.Itoa(i), "N")
		n.Children = []*model.Node{c}
		n = c
	}
	n.Children = []*model.Node{top}
	if _, err := Write(newMemWriter(), testTree(top), Options{}); err == nil || !strings.Contains(err.Error(), "its own ancestor") {
		t.Errorf("cycle: error %v", err)
	}
}

// TestHostileAttributes gives a node attribute keys and values of every
// shape: every member shows, under its label, and none breaks the page.
func TestHostileAttributes(t *testing.T) {
	n := testNode("n1", "Node", testNode("c1", "Child"))
	n.Attributes = map[string]json.RawMessage{
		"description":         json.RawMessage(`"Intro with a [relative link](#x)."`),
		"learning_objectives": json.RawMessage(`["One *objective*", "Two\nlines\n\n- nested", 3, null, true]`),
		"../../key":           json.RawMessage(`"key with a path"`),
		"<script>":            json.RawMessage(`"key with a tag"`),
		"   ":                 json.RawMessage(`"blank key"`),
		"# heading key":       json.RawMessage(`"heading key"`),
		"number":              json.RawMessage(`-2.5e-3`),
		"flag":                json.RawMessage(`false`),
		"nothing":             json.RawMessage(`null`),
		"empty_list":          json.RawMessage(`[]`),
		"empty_object":        json.RawMessage(`{}`),
		"strings":             json.RawMessage(`["a | b", "- c", "# d"]`),
		"terms":               json.RawMessage(`[{"term":"x","definition":"y"},{"word":"z","meaning":"w\nmore"}]`),
		"records":             json.RawMessage(`[{"criterion":"a | b","points":30},{"criterion":"c","points":null,"extra":true}]`),
		"rubric_levels":       json.RawMessage(`[{"criterion":"a | b","levels":["x","y"]},{"criterion":"c\nmore","points":2}]`),
		"nested_table":        json.RawMessage(`{"rubric":[{"c":"C","p":1},{"c":"*D*"}]}`),
		"empty_record":        json.RawMessage(`[{"x":null},{"b":[1]}]`),
		"object":              json.RawMessage(`{"level":{"deeper":{"list":["a","b"],"n":1}},"empty":[],"gone":null}`),
		"deep":                json.RawMessage(`{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}`),
		"nested_arrays":       json.RawMessage(`[[1,2],[3]]`),
		"invalid":             json.RawMessage(`{"unterminated": `),
		"title":               json.RawMessage(`"Node"`),
		"fence":               json.RawMessage("\"```\\nunclosed code\""),
		"comment":             json.RawMessage(`"<!-- unclosed comment"`),
		"script":              json.RawMessage(`"<script>\nvar x = 1;"`),
	}
	tr := testTree(n)
	tr.Locale = "en"
	w, e := write(t, tr, Options{})
	files := w.bundleFiles(e)
	checkLinks(t, files)
	page := files["01-node/index.md"]
	_, body := splitFrontMatter(t, page)
	info := inspect(t, renderHTML(t, body))

	wantH2 := []string{
		"Learning objectives", "\"   \"", "# heading key", "../../key", "<script>", "Comment", "Deep", "Empty list",
		"Empty object", "Empty record", "Fence", "Flag", "Invalid", "Nested arrays", "Nested table", "Number", "Object",
		"Records", "Rubric levels", "Script",
		"Strings", "Terms", "In this section",
	}
	if strings.Join(info.headings[2], "\n") != strings.Join(wantH2, "\n") {
		t.Errorf("sections:\n%q\nwant:\n%q", info.headings[2], wantH2)
	}
	if got := info.items[len(info.items)-1]; len(got) != 1 || got[0].href != "01-child.md" {
		t.Errorf("last list item %q, want the link to the child", got)
	}
	for _, want := range []string{
		"- One *objective*\n- Two\n  lines\n\n  - nested\n- 3\n- `null`\n- Yes\n",
		"-2.5e-3\n", "No\n",
		"- **x**: y\n- **z**: w\n  more\n",
		"| Criterion | Extra | Points |\n| --- | --- | --- |\n| a \\| b |  | 30 |\n| c | Yes |  |\n",
		"- Empty: `[]`\n- Level:\n    - Deeper:\n        - List:\n            - a\n            - b\n        - N: 1\n",
		"```json\n{\n  \"a\": {\n",
		"```json\n[\n  [\n    1,\n",
		"```\n{\"unterminated\":\n```\n",
		"```\nunclosed code\n```\n",
		"```html\n<!-- unclosed comment\n```\n",
		"```html\n<script>\nvar x = 1;\n```\n",
		"`[]`\n", "`{}`\n",
		"-   - Criterion: a | b\n    - Levels:\n        - x\n        - y\n-   - Criterion: c\n      more\n    - Points: 2\n",
		"- Rubric:\n    -   - C: C\n        - P: 1\n    -   - C: *D*\n",
		"- `{}`\n-   - B:\n        - 1\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Records are lists nested in list items, as the website's
	// <ul class="records"> holds a <dl> per record.
	for _, want := range []string{
		"<ul>\n<li>\n<ul>\n<li>Criterion: a | b</li>\n<li>Levels:\n<ul>\n<li>x</li>\n<li>y</li>\n</ul>\n</li>\n</ul>\n</li>\n<li>\n<ul>\n<li>Criterion: c\nmore</li>\n<li>Points: 2</li>\n</ul>\n</li>\n</ul>",
		"<li>Rubric:\n<ul>\n<li>\n<ul>\n<li>C: C</li>\n<li>P: 1</li>\n</ul>\n</li>",
	} {
		if html := renderHTML(t, body); !strings.Contains(html, want) {
			t.Errorf("rendered page lacks %q", want)
		}
	}
	if strings.Contains(body, "nothing") || strings.Contains(body, "Nothing") || strings.Contains(body, "gone") {
		t.Error("null members are shown")
	}
	if strings.Count(body, "\n# Node\n")+strings.Count(body, "# Node\n") == 0 {
		t.Error("no title heading")
	}
}

// failWriter fails its nth write.
type failWriter struct{ n int }

func (w *failWriter) Write(rel string, _ []byte) error {
	if w.n--; w.n == 0 {
		return errors.New("disk full")
	}
	return nil
}

// TestWriterError passes the Writer's error on, with the bundle and the
// file it was writing.
func TestWriterError(t *testing.T) {
	tr := testTree(testNode("n1", "One", testNode("n2", "Two")))
	for n, file := range []string{"index.md", "SUMMARY.md", "01-one/index.md", "01-one/01-two.md", "markdown.zip"} {
		_, err := Write(&failWriter{n: n + 1}, tr, Options{})
		if err == nil || !strings.Contains(err.Error(), "markdown bundle algebra-1/texas/es: write ") ||
			!strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("failing write %d: error %v", n+1, err)
		}
	}
}

// TestEmptyTree writes the root pages of a tree without nodes.
func TestEmptyTree(t *testing.T) {
	w, e := write(t, testTree(), Options{})
	files := w.bundleFiles(e)
	if len(files) != 2 || e.Files != 2 {
		t.Fatalf("%d files, Entry.Files %d", len(files), e.Files)
	}
	checkLinks(t, files)
	if got := string(files["SUMMARY.md"]); got != "# Summary\n\n[Algebra 1 › Texas](index.md)\n" {
		t.Errorf("SUMMARY.md = %q", got)
	}
}
