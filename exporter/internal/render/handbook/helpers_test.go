package handbook

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/testtrees"
)

// localeNames are the sample dataset's locale names.
var localeNames = map[string]string{"en": "English", "es": "Español", "ar": "العربية", "ja": "日本語"}

// sample returns the published tree of a sample export and the Info an
// exporter would pass for it.
func sample(t testing.TB, dir string) (*model.Tree, Info) {
	t.Helper()
	tr := testtrees.Sample(t).Find(t, dir).PublishedOnly()
	return tr, Info{
		LocaleName: localeNames[tr.Locale], TranslationProgress: 87, PublishedProgress: 100,
		ContentDate: tr.ResolvedAt, SiteHome: "index.html", LocaleNames: localeNames,
	}
}

func newRenderer(t testing.TB, o Options) *Renderer {
	t.Helper()
	if o.Generator == "" {
		o.Generator = "curex test"
	}
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func render(t testing.TB, r *Renderer, tr *model.Tree, info Info) string {
	t.Helper()
	out, err := r.Render(tr, info)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// node builds a published node whose attributes are the given JSON
// members.
func node(title string, attrs map[string]string, kids ...*model.Node) *model.Node {
	a := map[string]json.RawMessage{}
	for k, v := range attrs {
		a[k] = json.RawMessage(v)
	}
	return &model.Node{ID: "id-" + title, Title: title, WorkflowStatus: model.StatusPublished,
		NodeType: model.NodeType{Name: "lesson", DisplayName: "Lesson"}, Attributes: a,
		Translation: model.Translation{IsTranslated: true}, Children: kids}
}

// tree builds a tree in locale (primary "en") from root nodes.
func tree(locale string, nodes ...*model.Node) *model.Tree {
	return &model.Tree{
		Export: model.Export{CurriculumID: "c1", CurriculumName: "Curriculum", Variant: "District", Locale: locale,
			PrimaryLocale: "en", CurriculumSlug: "c", VariantSlug: "d", LocaleSlug: strings.ToLower(locale)},
		VariantChain: []string{"Curriculum", "District"},
		Nodes:        nodes,
	}
}

// parse parses a rendered document.
func parse(t testing.TB, doc string) *html.Node {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// all returns the elements under n for which keep is true, in document
// order.
func all(n *html.Node, keep func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && keep(d) {
			out = append(out, d)
		}
	}
	return out
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	return strings.Contains(" "+v+" ", " "+class+" ")
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// voidElements have no end tag.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
}

// checkDocument fails t when doc breaks the rules the W3C checker and our
// security rules enforce on a handbook: balanced tags, one <h1>, unique
// ids, in-page links that resolve, lists that contain only items, no
// scripts, no event handlers, no style attributes, one style element.
func checkDocument(t testing.TB, doc string) {
	t.Helper()
	// Tags are balanced and properly nested as written (the parser would
	// silently repair them).
	z := html.NewTokenizer(strings.NewReader(doc))
	var stack []string
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				t.Fatalf("tokenize: %v", z.Err())
			}
			break
		}
		name, _ := z.TagName()
		tag := string(name)
		switch tt {
		case html.StartTagToken:
			if !voidElements[tag] {
				stack = append(stack, tag)
			}
		case html.EndTagToken:
			if len(stack) == 0 || stack[len(stack)-1] != tag {
				t.Fatalf("</%s> closes %v", tag, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed elements %v", stack)
	}

	root := parse(t, doc)
	if h1 := all(root, func(n *html.Node) bool { return n.DataAtom == atom.H1 }); len(h1) != 1 {
		t.Errorf("%d <h1> elements, want 1", len(h1))
	}
	if s := all(root, func(n *html.Node) bool { return n.DataAtom == atom.Style }); len(s) != 1 {
		t.Errorf("%d <style> elements, want 1", len(s))
	}
	ids := map[string]bool{}
	for d := range root.Descendants() {
		if d.Type != html.ElementNode {
			continue
		}
		switch d.DataAtom {
		case atom.Script:
			t.Errorf("a <script> element: %q", text(d))
		case atom.Ol, atom.Ul:
			for c := d.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.DataAtom != atom.Li || c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
					t.Errorf("<%s> contains <%s> %q", d.Data, c.Data, text(c))
				}
			}
		case atom.Li:
			if p := d.Parent; p.DataAtom != atom.Ol && p.DataAtom != atom.Ul && p.DataAtom != atom.Menu {
				t.Errorf("<li> in <%s>", p.Data)
			}
		}
		for _, a := range d.Attr {
			switch {
			case strings.HasPrefix(a.Key, "on"):
				t.Errorf("<%s> has an event handler %s=%q", d.Data, a.Key, a.Val)
			case a.Key == "style":
				t.Errorf("<%s> has a style attribute", d.Data)
			case a.Key == "id":
				if a.Val == "" || strings.ContainsAny(a.Val, " \t\n") {
					t.Errorf("bad id %q", a.Val)
				}
				if ids[a.Val] {
					t.Errorf("duplicate id %q", a.Val)
				}
				ids[a.Val] = true
			case (a.Key == "href" || a.Key == "src") && strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Val)), "javascript:"):
				t.Errorf("<%s %s=%q>", d.Data, a.Key, a.Val)
			}
		}
	}
	for _, a := range all(root, func(n *html.Node) bool { return n.DataAtom == atom.A }) {
		if href, _ := attr(a, "href"); strings.HasPrefix(href, "#") && !ids[href[1:]] {
			t.Errorf("link to missing anchor %q", href)
		}
	}
	h := all(root, func(n *html.Node) bool { return n.DataAtom == atom.Html })
	if len(h) != 1 {
		t.Fatal("no <html>")
	}
	if _, ok := attr(h[0], "lang"); !ok {
		t.Error("<html> has no lang")
	}
}
