package html

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/slug"
)

// hostile builds a one-tree site whose every API string is an attack.
func hostile() *fixture {
	const (
		evil  = `<script>alert(1)</script>"'><img src=x onerror=alert(2)>`
		jsURL = `javascript:alert(3)`
		bidi  = "abc\u202Egnp.exe\u202C def\u2066x\u2069"
	)
	c := &Curriculum{ID: "c" + evil, Name: "Curriculum " + evil, Description: evil + jsURL, Slug: "c", PrimaryLocale: "en",
		Locales: []model.Locale{
			{Code: "en", Name: "English " + evil, Slug: "en", IsPrimary: true, PublishedProgress: 100},
			{Code: "ar", Name: "عربي " + bidi, Slug: "ar", PublishedProgress: 10},
		},
		Variants: []Variant{{Slug: "base"}, {Name: "Variant " + evil + jsURL, Slug: "v", ParentSlug: "base", Depth: 1}},
		Exported: map[string]bool{"base/en": true, "base/ar": true, "v/en": true, "v/ar": true},
	}
	f := &fixture{site: &SiteInfo{Title: "Site " + evil, Generator: "gen " + evil, Curricula: []*Curriculum{c}}, outlines: outlineMap{}}
	for _, v := range c.Variants {
		for _, l := range c.Locales {
			e := model.Export{CurriculumID: c.ID, CurriculumName: c.Name, Variant: v.Name, Locale: l.Code, PrimaryLocale: "en",
				CurriculumSlug: "c", VariantSlug: v.Slug, LocaleSlug: l.Slug}
			mk := func(id, title string, kids ...*model.Node) *model.Node {
				return &model.Node{
					ID: id, Title: title, WorkflowStatus: "published",
					NodeType:    model.NodeType{Name: "t" + evil, DisplayName: "Type " + evil, Icon: `../../x" onload="alert(4)`},
					TypeDisplay: "Type " + evil + " 1",
					Attributes: map[string]json.RawMessage{
						"description": json.RawMessage(`"[click](javascript:alert(5)) <script>alert(6)</script>"`),
						evil:          json.RawMessage(`"value"`),
						"link":        json.RawMessage(`"` + jsURL + `"`),
					},
					Inheritance: model.Inheritance{SourceCurriculum: "Src " + evil, OverrideLevel: 1},
					Translation: model.Translation{Status: "fallback", SourceLocale: `en" onclick="x`},
					Segment:     slug.ID(id),
					Children:    kids,
				}
			}
			t := &model.Tree{Export: e, VariantChain: []string{"Base " + evil},
				Nodes: []*model.Node{mk(evil, evil+" "+bidi, mk(jsURL, jsURL), mk("n3", bidi))}}
			f.trees = append(f.trees, t)
			f.outlines[e.Dir()] = OutlineOf(t)
		}
	}
	return f
}

func TestHostileInputIsEscaped(t *testing.T) {
	t.Parallel()
	f := hostile()
	w := f.render(t, Options{})
	ours := map[string]bool{}
	for _, n := range w.names() {
		if strings.HasSuffix(n, ".js") {
			ours[n] = true
		}
	}
	pages := 0
	for _, page := range w.names() {
		if !strings.HasSuffix(page, ".html") {
			continue
		}
		pages++
		data := string(w.files[page])
		for _, bad := range []string{"<script>alert", "<img", `onload="`, `onclick="`} {
			if strings.Contains(data, bad) {
				t.Errorf("%s contains %q", page, bad)
			}
		}
		doc := parse(t, w, page)
		walk(doc, func(n *html.Node) {
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("%s: <%s %s=%q>", page, n.Data, a.Key, a.Val)
				}
				if (a.Key == "href" || a.Key == "src" || a.Key == "action") && strings.Contains(strings.ToLower(a.Val), "javascript:") {
					t.Errorf("%s: <%s %s=%q>", page, n.Data, a.Key, a.Val)
				}
				if a.Key == "class" && strings.Contains(a.Val, "icon") && strings.ContainsAny(a.Val, `"./<`) {
					t.Errorf("%s: icon class %q", page, a.Val)
				}
			}
			switch n.Data {
			case "script":
				src, _ := attr(n, "src")
				target, _ := resolve(page, src)
				if !ours[target] || n.FirstChild != nil {
					t.Errorf("%s: script %q", page, src)
				}
			case "img", "iframe", "object", "embed", "style":
				t.Errorf("%s: <%s> element", page, n.Data)
			}
			if _, ok := attr(n, "style"); ok {
				t.Errorf("%s: inline style on <%s>", page, n.Data)
			}
		})
		// A bidi override in a title never leaks into the text around it:
		// it sits in a <bdi>, an element with dir, or alone in a block.
		var text func(n *html.Node, isolated bool)
		text = func(n *html.Node, isolated bool) {
			if n.Type == html.ElementNode {
				if _, ok := attr(n, "dir"); ok || n.Data == "bdi" || n.Data == "title" {
					isolated = true
				}
			}
			if n.Type == html.TextNode && strings.Contains(n.Data, "\u202E") && !isolated {
				p := n.Parent
				alone := p.FirstChild == n && p.LastChild == n
				block := strings.Contains(" h1 h2 p li td th caption dd dt div ", " "+p.Data+" ")
				if !alone || !block {
					t.Errorf("%s: bidi override outside an isolate in <%s>", page, p.Data)
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				text(c, isolated)
			}
		}
		text(doc, false)
	}
	if pages < 10 {
		t.Fatalf("%d pages", pages)
	}
	// The search index is data for a script: no way out of the string.
	js := string(w.files["c/base/en/search-index.js"])
	if strings.Contains(js, "</script") || strings.Contains(js, "<script") {
		t.Errorf("search-index.js: %s", js)
	}
}

func TestRel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to, want string }{
		{"index.html", "a/index.html", "a/index.html"},
		{"a/b/c/n/index.html", "a/b/c/m/index.html", "../m/index.html"},
		{"a/b/c/n/index.html", "a/b/c/n/index.html", "index.html"},
		{"a/b/c/n/index.html", "a/b/c/index.html", "../index.html"},
		{"a/b/c/index.html", "a/b/c/n/index.html", "n/index.html"},
		{"a/b/c/n/index.html", "assets/site.1.css", "../../../../assets/site.1.css"},
		{"a/x/c/n/index.html", "a/y/c/n/index.html", "../../../y/c/n/index.html"},
		{"a/index.html", "javascript:alert(1)/x", "../javascript:alert%281%29/x"},
		{"index.html", "javascript:x", "./javascript:x"},
		{"index.html", "a b/ü?#.html", "a%20b/%C3%BC%3F%23.html"},
	} {
		if got := rel(tc.from, tc.to); got != tc.want {
			t.Errorf("rel(%q, %q) = %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
}

// relByFolders is rel as first written, folder by folder: FuzzRel holds
// the faster rel to it.
func relByFolders(from, to string) string {
	fd := strings.Split(from, "/")
	fd = fd[:len(fd)-1]
	ts := strings.Split(to, "/")
	i := 0
	for i < len(fd) && i < len(ts)-1 && fd[i] == ts[i] {
		i++
	}
	var b strings.Builder
	for range len(fd) - i {
		b.WriteString("../")
	}
	for j, s := range ts[i:] {
		if j > 0 {
			b.WriteByte('/')
		}
		b.WriteString(url.PathEscape(s))
	}
	out := b.String()
	if first, _, _ := strings.Cut(out, "/"); strings.Contains(first, ":") || out == "" {
		out = "./" + out
	}
	return out
}

func FuzzRel(f *testing.F) {
	f.Add("a/b/c/n/index.html", "a/b/c/m/index.html")
	f.Add("a/b/index.html", "a/b")
	f.Add("index.html", "javascript:x")
	f.Add("a//b/index.html", "a//c/x.html")
	f.Add("a/b/c/index.html", "a/b/c/ü/index.html")
	f.Fuzz(func(t *testing.T, from, to string) {
		if got, want := rel(from, to), relByFolders(from, to); got != want {
			t.Errorf("rel(%q, %q) = %q, want %q", from, to, got, want)
		}
	})
}
