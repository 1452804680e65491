package html

import (
	"html/template"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestOnThisPage(t *testing.T) {
	t.Parallel()
	sec := func(id, label string) string {
		return `<section class="attr"><h2 id="` + id + `">` + label + "</h2></section>\n"
	}
	for _, tc := range []struct {
		name, content, children, lang string
		want                          []Heading
	}{
		{name: "three entries are too few", content: sec("c--a", "A") + sec("c--b", "B") + sec("c--c", "C")},
		{name: "three and the children", content: sec("c--a", "A") + sec("c--b", "B") + sec("c--c", "C"), children: "In this section",
			want: []Heading{{Title: "A", Href: "#c--a"}, {Title: "B", Href: "#c--b"}, {Title: "C", Href: "#c--c"},
				{Title: "In this section", Href: "#in-this-section"}}},
		{name: "authors' headings carry the content's language, h3 nest under h2",
			content: `<div class="description"><h3 id="c-description-x">Lead &amp; intro</h3><h2 id="c-description-y">Y</h2><h3 id="c-description-z">Z</h3></div>` +
				sec("c--a", "A") + `<h4 id="c-a-deep">too deep</h4><h2>no id</h2>`,
			lang: "en",
			want: []Heading{{Title: "Lead & intro", Href: "#c-description-x", Lang: "en"},
				{Title: "Y", Href: "#c-description-y", Lang: "en", Children: []Heading{{Title: "Z", Href: "#c-description-z", Lang: "en"}}},
				{Title: "A", Href: "#c--a"}}},
		{name: "math keeps its shown text, not its TeX source",
			content: `<h2 id="c-description-m">Solve <math><mi>x</mi><semantics><annotation encoding="application/x-tex">\alpha</annotation></semantics></math>  now</h2>` +
				sec("c--a", "A") + sec("c--b", "B") + sec("c--c", "C"),
			want: []Heading{{Title: "Solve x now", Href: "#c-description-m"}, {Title: "A", Href: "#c--a"}, {Title: "B", Href: "#c--b"}, {Title: "C", Href: "#c--c"}}},
		{name: "an empty heading is left out", content: sec("c--a", " ") + sec("c--b", "B") + sec("c--c", "C") + sec("c--d", "D")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := onThisPage(template.HTML(tc.content), contentPrefix, tc.children, tc.lang)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestOnThisPageLinks: every link of a node page's own table of contents
// leads to an element of the page, on every node page of the sample that
// has one, and most lessons with children or a description have one.
func TestOnThisPageLinks(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	pages, withTOC := 0, 0
	for _, name := range w.names() {
		if !strings.HasSuffix(name, "/index.html") || strings.Count(name, "/") < 4 {
			continue
		}
		doc, err := html.Parse(strings.NewReader(string(w.files[name])))
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		var links []string
		var walk func(*html.Node, bool)
		walk = func(n *html.Node, inTOC bool) {
			if n.Type == html.ElementNode {
				for _, a := range n.Attr {
					switch {
					case a.Key == "id":
						ids[a.Val] = true
					case a.Key == "class" && a.Val == "on-this-page":
						inTOC = true
					case a.Key == "href" && inTOC:
						links = append(links, a.Val)
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, inTOC)
			}
		}
		walk(doc, false)
		pages++
		if len(links) == 0 {
			continue
		}
		withTOC++
		if len(links) < minOnThisPage {
			t.Errorf("%s: %d entries, fewer than %d", name, len(links), minOnThisPage)
		}
		for _, l := range links {
			if !strings.HasPrefix(l, "#") || !ids[strings.TrimPrefix(l, "#")] {
				t.Errorf("%s: %s leads nowhere on the page", name, l)
			}
		}
	}
	if withTOC == 0 || withTOC == pages {
		t.Errorf("%d of %d node pages have their own contents: the rule picks none or all", withTOC, pages)
	}
	t.Logf("%d of %d node pages have their own contents", withTOC, pages)
}

// FuzzOnThisPage: whatever HTML the content holds, every entry of the
// page's contents has a title and links to a non-empty id in the page.
func FuzzOnThisPage(f *testing.F) {
	f.Add(`<h2 id="c--a">A</h2><h3 id="c-x-b">B &amp; <math><annotation>\x</annotation></math></h3><h2 id="c">C</h2><h2 id="d">D</h2>`)
	f.Add(`<h2 id="a"><h3 id="b">x</h2></h3><h2 id=c>y<annotation-xml>z`)
	f.Fuzz(func(t *testing.T, s string) {
		for _, h := range onThisPage(template.HTML(s), contentPrefix, "", "") {
			for _, e := range append([]Heading{h}, h.Children...) {
				id := strings.TrimPrefix(e.Href, "#")
				if e.Title == "" || id == "" || id == e.Href {
					t.Errorf("entry %+v of %q", e, s)
				}
			}
		}
	})
}
