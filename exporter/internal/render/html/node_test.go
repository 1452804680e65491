package html

import (
	"context"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render"
)

// text is the text content of n.
func text(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return strings.TrimSpace(b.String())
}

// treeOf is the fixture's tree written to dir.
func treeOf(t *testing.T, f *fixture, dir string) *model.Tree {
	t.Helper()
	for _, tr := range f.trees {
		if tr.Dir() == dir {
			return tr
		}
	}
	t.Fatalf("no tree %s", dir)
	return nil
}

// nodeOf is node id of tree tr.
func nodeOf(t *testing.T, tr *model.Tree, id string) *model.Node {
	t.Helper()
	var found *model.Node
	tr.Walk(func(n *model.Node) bool {
		if n.ID == id {
			found = n
		}
		return found == nil
	})
	if found == nil {
		t.Fatalf("%s: no node %s", tr.Dir(), id)
	}
	return found
}

// TestInheritanceBadges: a node page says where its content comes from.
// In the sample, Texas (a variant of Algebra 1) overrides alg-u1-l4 and
// adds alg-tx-l1; Houston ISD (a variant of Texas) inherits both,
// overrides alg-u3-l2 again and adds alg-hou-l1.
func TestInheritanceBadges(t *testing.T) {
	t.Parallel()
	f, w := rendered(t)
	for _, tc := range []struct {
		dir, id string
		// in is the node's inheritance metadata, which the case relies on.
		in   model.Inheritance
		want []string
	}{
		// The base authored its own nodes: nothing to say.
		{"algebra-1/base/en", "alg-u1-l1", model.Inheritance{SourceCurriculum: "Algebra 1"}, nil},
		{"algebra-1/texas/en", "alg-u1-l1", model.Inheritance{IsInherited: true, SourceCurriculum: "Algebra 1"}, []string{"Inherited from Algebra 1"}},
		{"algebra-1/texas/en", "alg-u1-l4", model.Inheritance{SourceCurriculum: "Texas", OverrideLevel: 1}, []string{"Changed in Texas"}},
		{"algebra-1/texas/en", "alg-tx-l1", model.Inheritance{SourceCurriculum: "Texas"}, []string{"Added in Texas"}},
		// Inherited by Houston ISD, but changed on the way: the change wins.
		{"algebra-1/houston-isd/en", "alg-u1-l4", model.Inheritance{IsInherited: true, SourceCurriculum: "Texas", OverrideLevel: 1}, []string{"Changed in Texas"}},
		{"algebra-1/houston-isd/en", "alg-u3-l2", model.Inheritance{SourceCurriculum: "Houston ISD", OverrideLevel: 2}, []string{"Changed in Houston ISD"}},
		{"algebra-1/houston-isd/en", "alg-tx-l1", model.Inheritance{IsInherited: true, SourceCurriculum: "Texas"}, []string{"Added in Texas"}},
		{"algebra-1/houston-isd/en", "alg-hou-l1", model.Inheritance{SourceCurriculum: "Houston ISD"}, []string{"Added in Houston ISD"}},
		{"algebra-1/houston-isd/es", "alg-u3-l2", model.Inheritance{SourceCurriculum: "Houston ISD", OverrideLevel: 2}, []string{"Modificado en Houston ISD"}},
	} {
		tr := treeOf(t, f, tc.dir)
		n := nodeOf(t, tr, tc.id)
		page := layout.NodePage(tr.Export, n.Segment)
		if n.Inheritance != tc.in {
			t.Fatalf("%s/%s: the sample's inheritance is %+v, the case expects %+v", tc.dir, tc.id, n.Inheritance, tc.in)
		}
		var got []string
		for _, li := range find(parse(t, w, page), "li", "class", "badge") {
			got = append(got, text(li))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: badges %q, want %q", page, got, tc.want)
		}
	}
}

// pager returns the targets of a node page's previous and next links
// ("" when there is none).
func pager(t *testing.T, w *memWriter, page string) (prev, next string) {
	t.Helper()
	doc := parse(t, w, page)
	for _, tc := range []struct {
		rel string
		to  *string
	}{{"prev", &prev}, {"next", &next}} {
		as := find(doc, "a", "rel", tc.rel)
		if len(as) > 1 {
			t.Errorf("%s: %d %s links", page, len(as), tc.rel)
		}
		if len(as) == 1 {
			href, _ := attr(as[0], "href")
			*tc.to, _ = resolve(page, href)
		}
	}
	return prev, next
}

// TestPrevNext: every node page links to the previous and the next node in
// reading order (depth first), across levels; the first node has no
// previous link and the last no next one.
func TestPrevNext(t *testing.T) {
	t.Parallel()
	f, w := rendered(t)
	for _, tr := range f.trees {
		var order []string
		tr.Walk(func(n *model.Node) bool { order = append(order, layout.NodePage(tr.Export, n.Segment)); return true })
		for i, page := range order {
			var wantPrev, wantNext string
			if i > 0 {
				wantPrev = order[i-1]
			}
			if i+1 < len(order) {
				wantNext = order[i+1]
			}
			prev, next := pager(t, w, page)
			if prev != wantPrev || next != wantNext {
				t.Errorf("%s: prev %q next %q, want %q and %q", page, prev, next, wantPrev, wantNext)
			}
		}
	}

	// The same, spelled out for the start of the base tree.
	const dir = "algebra-1/base/en/"
	for _, tc := range []struct{ id, prev, next string }{
		{"alg-u1", "", "alg-u1-l1"},
		{"alg-u1-l1", "alg-u1", "alg-u1-l2"},
		{"alg-u1-l3", "alg-u1-l2", "alg-u1-l3-a1"}, // down into a lesson
		{"alg-u1-l3-a1", "alg-u1-l3", "alg-u1-l4"}, // back up a level
		{"alg-u1-l4-q1", "alg-u1-l4", "alg-u2"},    // up two levels
		{"alg-u2", "alg-u1-l4-q1", "alg-u2-l1"},    // previous is the deepest last node
	} {
		page := func(id string) string {
			if id == "" {
				return ""
			}
			return dir + id + "/index.html"
		}
		prev, next := pager(t, w, page(tc.id))
		if prev != page(tc.prev) || next != page(tc.next) {
			t.Errorf("%s: prev %q next %q, want %q and %q", tc.id, prev, next, page(tc.prev), page(tc.next))
		}
	}
}

// TestContentsPageDownloads: a contents page, and the cell of its
// variant × locale on the curriculum's landing page, link to the
// handbook, its PDF, the EPUB book, the cartridge, the Markdown zip and
// the JSON bundle of its tree, relative to themselves, and only to those
// that are written.
func TestContentsPageDownloads(t *testing.T) {
	t.Parallel()
	const toc, landing = "algebra-1/texas/es/index.html", "algebra-1/index.html"
	targets := map[string]string{
		"handbook":  "algebra-1/texas/es/handbook.html",
		"pdf":       "algebra-1/texas/es/handbook.pdf",
		"epub":      "algebra-1/texas/es/algebra-1-texas-es.epub",
		"cartridge": "bundles/algebra-1/texas/es/course.imscc",
		"markdown":  "bundles/algebra-1/texas/es/markdown.zip",
		"json":      "bundles/algebra-1/texas/es/tree.json",
	}
	f := sample(t, false) // its subtests run one after another
	types := map[string]string{"handbook": "text/html", "pdf": "application/pdf", "epub": "application/epub+zip",
		"cartridge": "application/zip", "markdown": "application/zip", "json": "application/json"}
	// The downloads as the registry lists them (exporter.Formats, which
	// this package cannot import), by format.
	all := map[string]render.Download{
		"handbook":  {Format: "handbook", Path: layout.Handbook, Type: types["handbook"], LabelKey: "download_handbook", Opens: true},
		"pdf":       {Format: "pdf", Path: layout.PDF, Type: types["pdf"], LabelKey: "download_pdf"},
		"epub":      {Format: "epub", Path: layout.EPUB, Type: types["epub"], LabelKey: "download_epub"},
		"cartridge": {Format: "cartridge", Path: layout.Cartridge, Type: types["cartridge"], LabelKey: "download_cartridge"},
		"markdown":  {Format: "markdown", Path: layout.MarkdownZip, Type: types["markdown"], LabelKey: "download_markdown"},
		"json":      {Format: "json", Path: layout.TreeJSON, Type: types["json"], LabelKey: "json_bundle"},
	}
	for _, tc := range []struct {
		name   string
		bundle bool
		want   []string
	}{
		{"everything", true, []string{"handbook", "pdf", "epub", "cartridge", "markdown", "json"}},
		{"no pdf", true, []string{"handbook", "markdown", "json"}},
		{"cartridge and epub", false, []string{"handbook", "epub", "cartridge"}},
		{"bundles only", true, []string{"markdown", "json"}},
		{"nothing", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.site.Downloads, f.site.PageData = nil, nil
			if tc.bundle {
				f.site.PageData = layout.TreeJSON
			}
			for _, name := range tc.want {
				f.site.Downloads = append(f.site.Downloads, all[name])
			}
			defer func() { f.site.Downloads, f.site.PageData = nil, nil }()
			r, err := New(Options{})
			if err != nil {
				t.Fatal(err)
			}
			w := newMemWriter()
			if err := r.RenderTree(context.Background(), w, f.site, treeOf(t, f, "algebra-1/texas/es"), f.outlines); err != nil {
				t.Fatal(err)
			}
			if err := r.RenderSite(w, f.site); err != nil {
				t.Fatal(err)
			}
			check := func(page string, links []*html.Node) {
				t.Helper()
				var got []string
				for _, a := range links {
					href, _ := attr(a, "href")
					target, _ := resolve(page, href)
					kind := ""
					for k, v := range targets {
						if v == target {
							kind = k
						}
					}
					if kind == "" {
						t.Errorf("%s: download link %q resolves to %s, no file of the tree", page, href, target)
						continue
					}
					got = append(got, kind)
					if typ, _ := attr(a, "type"); typ != types[kind] {
						t.Errorf("%s: %s link type %q, want %q", page, kind, typ, types[kind])
					}
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("%s: downloads %q, want %q", page, got, tc.want)
				}
			}
			doc := parse(t, w, toc)
			var links []*html.Node
			for _, a := range find(doc, "a") {
				if class, _ := attr(a, "class"); strings.HasPrefix(class, "download download--") {
					links = append(links, a)
				}
			}
			check(toc, links)
			if tc.want == nil && len(find(doc, "ul", "class", "downloads")) != 0 {
				t.Error("empty downloads list")
			}
			// On the landing page, the downloads of Texas in Spanish are
			// in the cell that links to its contents page.
			doc = parse(t, w, landing)
			var cell *html.Node
			for _, td := range find(doc, "td") {
				for _, a := range find(td, "a", "class", "cell") {
					if href, _ := attr(a, "href"); href == "texas/es/index.html" {
						cell = td
					}
				}
			}
			if cell == nil {
				t.Fatalf("%s: no cell links to texas/es/index.html", landing)
			}
			links = nil
			for _, d := range find(cell, "details", "class", "cell__downloads") {
				links = append(links, find(d, "a")...)
			}
			check(landing, links)
			if tc.want == nil && len(find(cell, "details")) != 0 {
				t.Errorf("%s: empty downloads in a cell", landing)
			}
		})
	}
}
