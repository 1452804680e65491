package exporter_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// Hostile strings. Those that end up in titles, names and ids carry the
// marker T; those in attribute values (received content) the marker D, so
// that a finding says where it came from.
const (
	hostileT    = `<script>alert("T")</script>"'><img src=x onerror=alert("T")>`
	hostileJS   = `javascript:alert("T")`
	hostileBidi = "T abc\u202Egnp.exe\u202C def \u2066x\u2069 and unclosed \u202Eoverride"
	hostileCtl  = "T-ctl NUL\x00 ESC\x1b[31m BEL\x07 CR\r LF\n TAB\t DEL\x7f NEL\u0085 end"
	hostileD    = `<script>alert("D")</script>"'><img src=x onerror=alert("D")>`
	hostileDJS  = `javascript:alert("D")`
	hostileDCtl = "D abc\u202Egnp.exe NUL\x00 ESC\x1b[31m BEL\x07 DEL\x7f NEL\u0085 end"
	hostileMD   = "Intro <script>alert(\"D\")</script>\n\n" +
		"[click](javascript:alert(\"D\")) [again](JaVaScRiPt:alert('D')) [tab](java\tscript:alert('D'))\n\n" +
		"<a href=\"javascript:alert('D')\">raw link</a> <img src=x onerror=alert(\"D\")> " +
		"<iframe src=\"javascript:alert('D')\"></iframe> <svg onload=alert(\"D\")></svg>\n\n" +
		"![img](javascript:alert('D')) <style>body{display:none}</style> ctl \x1b[31m \u202E D\n"
)

// hostileDataset serves one curriculum, with a variant, whose every string
// is an attack: HTML and script in titles, names, locale names, node type
// names and icons, attribute keys and values; javascript: links; path
// traversal in ids and names; NUL and control characters; bidi overrides;
// a 1 MB title.
func hostileDataset() *dataset.Dataset {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	raw := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return b
	}
	attrs := map[string]json.RawMessage{
		"description":         raw(hostileMD),
		"learning_objectives": raw([]string{hostileD, hostileDJS, hostileDCtl}),
		"link":                raw(hostileDJS),
		"resource":            raw(map[string]string{"url": hostileDJS, "title": hostileD}),
		hostileD:              raw("a key that is an attack"),
		"../../key":           raw(hostileDCtl),
		"nul\x00key\u202E":    raw(hostileDCtl),
	}
	mega := strings.Repeat("Long title ", 1<<20/11) // 1 MB
	leaf := func(id, title string) dataset.Node {
		return dataset.Node{ID: id, Title: title, NodeType: "lesson", Attributes: attrs}
	}
	root := dataset.Node{ID: "../../../../escape", Title: hostileT, NodeType: "unit", Attributes: attrs, Children: []dataset.Node{
		leaf("/etc/passwd", hostileJS),
		leaf(`C:\Windows\system32`, hostileCtl),
		leaf("..", hostileBidi),
		leaf(".", "dot"),
		leaf("a\x00b", "a NUL in the id"),
		leaf("%2e%2e%2f%2e%2e", "percent-encoded traversal"),
		leaf("con", "a reserved Windows name"),
		leaf(strings.Repeat("x", 300), "a 300-byte id"),
		{ID: "mega", Title: mega, NodeType: "lesson", Attributes: map[string]json.RawMessage{
			"description": raw(strings.Repeat("A paragraph of *Markdown*, over and over. ", 1<<20/43) + "\n\n" + hostileMD), // 1 MB
		}},
	}}
	locales := []dataset.Locale{{Code: "en", Name: "English " + hostileT}, {Code: "ar", Name: "عربي " + hostileBidi}}
	return &dataset.Dataset{
		Organizations: []dataset.Organization{{ID: "org", Name: hostileT}},
		Users:         []dataset.User{{ID: "u", Email: "u@example.org", Name: hostileT, Organization: "org"}},
		Tokens:        []dataset.Token{{Token: matrixToken, User: "u"}},
		NodeTypes: []dataset.NodeType{
			{Name: "unit", DisplayName: "Unit " + hostileT, Icon: `../../x" onload="alert("T")`, Translations: map[string]string{"ar": hostileBidi}},
			{Name: "lesson", DisplayName: "Lesson " + hostileBidi, Icon: hostileJS},
		},
		Curricula: []dataset.Curriculum{
			{
				ID: "../../c1", Organization: "org", Name: "../../../etc/passwd " + hostileT + " " + hostileBidi,
				Description: hostileMD, StructureName: hostileT, PrimaryLocale: "en", Locales: locales,
				CreatedAt: t0, UpdatedAt: t0, Nodes: []dataset.Node{root},
				Translations: map[string]map[string]dataset.Translation{"ar": {
					"../../../../escape": {Title: hostileBidi + " " + hostileT},
					"/etc/passwd":        {Title: "\u202E" + hostileJS, Attributes: map[string]json.RawMessage{"description": raw(hostileDCtl + "\n\n" + hostileMD)}},
				}},
			},
			{
				ID: "v/../../1", Parent: "../../c1", Name: "../../../../tmp/evil " + hostileT + " " + hostileCtl, Description: hostileT,
				CreatedAt: t0, UpdatedAt: t0,
				Overrides: []dataset.Override{{Node: "..", Title: hostileCtl + hostileBidi}},
				Additions: []dataset.Addition{{Parent: "../../../../escape", Position: 0, Node: dataset.Node{
					ID: hostileJS, Title: hostileT, NodeType: "lesson", Attributes: attrs,
				}}},
			},
		},
	}
}

// TestHostileContent exports a dataset of attacks in every format but pdf
// and checks the rules of docs/reliability.md: nothing is written outside
// the output folder, every path is safe, no script or javascript: link
// from the content reaches a page, control characters are gone and bidi
// overrides are isolated, and the 1 MB title is exported.
func TestHostileContent(t *testing.T) {
	startRegexpClock()
	root := t.TempDir()
	t.Setenv("TMPDIR", filepath.Join(root, "tmp")) // the run's spool folders
	if err := os.Mkdir(filepath.Join(root, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	h, err := sandboxtest.New(t.Name(), hostileDataset(), sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	out := filepath.Join(root, "site", "out")
	cfg := exporter.Config{
		BaseURL: srv.URL, Token: matrixToken, Output: out, CacheDir: filepath.Join(root, "cache"),
		Limits: ratelimit.Limits{}, Generator: "curex test", SiteURL: "https://example.org/",
		Formats: []string{"html", "markdown", "json", "handbook"},
	}
	sum, err := exporter.Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Partial() || sum.Written != 4 {
		t.Fatalf("wrote %d of %d exports; failures %v", sum.Written, sum.Planned, failures(sum))
	}

	// Nothing outside the output folder and the cache; spools removed.
	inside := func(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator)) }
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (p == root || p == filepath.Dir(out) || p == filepath.Join(root, "tmp")) {
			return nil
		}
		if !inside(p, out) && !inside(p, cfg.CacheDir) {
			t.Errorf("written outside the output folder: %s", p)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			t.Errorf("symbolic link: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkManifest(t, out) // every path passes output.CheckPath
	checkBundles(t, out, sum.Written)

	// Ids and names are kept exactly in manifest.json and tree.json.
	all := files(t, out)
	m := readManifestFromFiles(t, out, all)
	variants := map[string]bool{}
	for _, e := range m.Exports {
		if e.CurriculumID != "../../c1" {
			t.Errorf("manifest: curriculum_id %q", e.CurriculumID)
		}
		variants[e.Variant] = true
		if e.Variant != "" {
			var b struct {
				Nodes []struct {
					ID       string `json:"id"`
					Children []struct {
						ID    string `json:"id"`
						Title string `json:"title"`
					} `json:"children"`
				} `json:"nodes"`
			}
			if err := json.Unmarshal([]byte(all[filepath.Join(out, filepath.FromSlash(e.JSON))]), &b); err != nil {
				t.Fatal(err)
			}
			ids := map[string]string{}
			for _, c := range b.Nodes[0].Children {
				ids[c.ID] = c.Title
			}
			// The 1 MB title is cut to about fetch.MaxLineBytes, in every
			// format; the ids are kept exactly.
			if mega := ids["mega"]; !strings.HasPrefix(mega, "Long title Long title") || !strings.HasSuffix(mega, "…") || len(mega) > fetch.MaxLineBytes+8 {
				t.Errorf("%s: the 1 MB title is %d bytes, want it cut to about %d ending in …", e.JSON, len(mega), fetch.MaxLineBytes)
			}
			if b.Nodes[0].ID != "../../../../escape" || ids["a\x00b"] == "" || ids[hostileJS] == "" {
				t.Errorf("%s: ids not kept: root %q, children %d", e.JSON, b.Nodes[0].ID, len(ids))
			}
		}
	}
	if !variants["../../../../tmp/evil "+hostileT+" "+hostileCtl] {
		t.Errorf("manifest: variants %v, want the variant's name exactly", variants)
	}

	pages, titles := 0, 0
	for p, data := range all {
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if err := output.CheckPath(rel); err != nil {
			t.Errorf("on disk: %v", err)
		}
		if !utf8.ValidString(data) && !strings.HasSuffix(rel, ".zip") && !strings.HasSuffix(rel, ".woff2") {
			t.Errorf("%s: not UTF-8", rel)
		}
		switch path.Ext(rel) {
		case ".zip", ".woff2": // the Markdown archive; the math font (package mathstyle)
			continue
		case ".html":
			pages++
			checkHostilePage(t, rel, data)
		case ".md":
			// Received Markdown is passed through (docs/markdown.md);
			// what curex writes from titles and names is escaped.
			for _, bad := range []string{`<script>alert("T")`, `<img src=x onerror=alert("T")`, "](" + hostileJS, "T abc\u202E"} {
				if strings.Contains(data, bad) {
					t.Errorf("%s: %q from a title or name", rel, bad)
				}
			}
		}
		// NUL never gets through; no control character of a title or a
		// name does, but for white space (received content keeps its own,
		// and JSON keeps names exactly: see docs/reliability.md).
		if strings.ContainsRune(data, 0) {
			t.Errorf("%s: NUL", rel)
		}
		for rest := data; path.Ext(rel) != ".json"; {
			i := strings.Index(rest, "T-ctl")
			if i < 0 {
				break
			}
			rest = rest[i+len("T-ctl"):]
			if end := strings.Index(rest, "end"); end >= 0 && end < 100 {
				if j := strings.IndexFunc(rest[:end], isControlNotSpace); j >= 0 {
					t.Errorf("%s: a title's control character %q got through: %q", rel, rest[j:j+1], rest[:end])
					break
				}
			}
		}
		if strings.Contains(data, "Long title Long title") {
			titles++
		}
	}
	if pages < 20 {
		t.Errorf("%d pages: the export proves little", pages)
	}
	if titles == 0 {
		t.Error("the 1 MB title is nowhere")
	}
	if !strings.Contains(all[filepath.Join(out, filepath.FromSlash(m.Exports[0].HTML[:strings.LastIndex(m.Exports[0].HTML, "/")]), "mega", "index.html")],
		"A paragraph of <em>Markdown</em>, over and over.") {
		t.Error("the 1 MB description is not on its page")
	}
}

// checkHostilePage checks one HTML file: the only scripts are the theme's,
// no element has an event handler attribute or inline style, no link or
// source uses javascript:, none of the embedded elements of the hostile
// Markdown survives, and bidi overrides sit in an isolate.
func checkHostilePage(t *testing.T, rel, data string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(data))
	if err != nil {
		t.Errorf("%s: %v", rel, err)
		return
	}
	var walk func(n *html.Node, isolated bool)
	walk = func(n *html.Node, isolated bool) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				v := strings.ToLower(strings.Map(func(r rune) rune {
					if r <= ' ' {
						return -1 // browsers skip these in a URL's scheme
					}
					return r
				}, a.Val))
				switch {
				case strings.HasPrefix(a.Key, "on"):
					t.Errorf("%s: <%s %s=%q>", rel, n.Data, a.Key, a.Val)
				case a.Key == "style":
					t.Errorf("%s: inline style on <%s>", rel, n.Data)
				case (a.Key == "href" || a.Key == "src" || a.Key == "action" || a.Key == "formaction" || a.Key == "xlink:href") &&
					(strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "data:") || strings.HasPrefix(v, "vbscript:")):
					t.Errorf("%s: <%s %s=%q>", rel, n.Data, a.Key, a.Val)
				}
			}
			switch n.Data {
			case "script":
				src := attrOf(n, "src")
				if n.FirstChild != nil || !strings.Contains(src, "assets/site.") && !strings.Contains(src, "assets/theme.") && !strings.Contains(src, "assets/search.") {
					t.Errorf("%s: a script that is not the theme's: src %q", rel, src)
				}
			case "img", "iframe", "object", "embed", "svg", "base", "meta":
				if n.Data != "meta" || attrOf(n, "http-equiv") == "refresh" {
					t.Errorf("%s: <%s> element", rel, n.Data)
				}
			}
			if n.Data == "bdi" || n.Data == "title" || attrOf(n, "dir") != "" {
				isolated = true
			}
		}
		// A bidi control left open never reaches the text around it:
		// it sits in an isolate (<bdi>, an element with dir, <title>)
		// or alone in a block, where it ends with the block.
		if n.Type == html.TextNode && leavesBidiOpen(n.Data) && !isolated {
			p := n.Parent
			alone := p.FirstChild == n && p.LastChild == n
			block := strings.Contains(" h1 h2 h3 h4 h5 h6 p li td th caption dd dt div pre code ", " "+p.Data+" ")
			if !alone || !block {
				t.Errorf("%s: an open bidi control outside an isolate in <%s>: %.80q", rel, p.Data, n.Data)
			}
		}
		// Titles show no control character but white space.
		if n.Type == html.ElementNode && (n.Data == "title" || n.Data == "h1") {
			if txt := textOf(n); strings.IndexFunc(txt, isControlNotSpace) >= 0 {
				t.Errorf("%s: control character in <%s>: %.80q", rel, n.Data, txt)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, isolated)
		}
	}
	walk(doc, false)
	if bytes.Contains([]byte(data), []byte(`<script>alert(`)) {
		t.Errorf("%s: a raw script from the content", rel)
	}
}

// textOf returns the text inside n.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// leavesBidiOpen reports whether s opens a bidi embedding, override or
// isolate it does not close (Unicode Bidirectional Algorithm, X1-X10).
func leavesBidiOpen(s string) bool {
	var open []rune // the closer each open control waits for
	for _, r := range s {
		switch r {
		case '\u202A', '\u202B', '\u202D', '\u202E':
			open = append(open, '\u202C')
		case '\u2066', '\u2067', '\u2068':
			open = append(open, '\u2069')
		case '\u202C':
			if n := len(open); n > 0 && open[n-1] == '\u202C' {
				open = open[:n-1]
			}
		case '\u2069':
			for i := len(open) - 1; i >= 0; i-- {
				if open[i] == '\u2069' {
					open = open[:i]
					break
				}
			}
		}
	}
	return len(open) > 0
}

// isControl reports a C0 or C1 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r < 0xa0) }

// isControlNotSpace is isControl but for tab, line feed and carriage
// return, which HTML and Markdown read as white space.
func isControlNotSpace(r rune) bool { return isControl(r) && r != '\t' && r != '\n' && r != '\r' }

// attrOf returns the value of n's attribute key, or "".
func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
