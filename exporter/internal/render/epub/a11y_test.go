package epub

import (
	"regexp"
	"strings"
	"testing"
)

// The tests of issue 25 item 4 that need no tool: what DAISY Ace reported
// on every sample book (TestAce runs Ace itself).

// TestNavTocHasDocTocRole: the table of contents is a nav with
// epub:type="toc" and the matching ARIA role doc-toc (Ace:
// epub-type-has-matching-role on every book).
func TestNavTocHasDocTocRole(t *testing.T) {
	for _, tc := range []struct {
		name string
		book []byte
	}{
		{"small", render(t, smallTree("en"), smallInfo(t))},
		{"arabic", render(t, smallTree("ar"), smallInfo(t))},
		{"empty", render(t, tree("en"), Info{})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nav := string(unzippedFiles(t, tc.book)["EPUB/text/nav.xhtml"])
			if !strings.Contains(nav, `<nav epub:type="toc" id="toc" role="doc-toc">`) {
				t.Errorf("the toc nav lacks role=\"doc-toc\":\n%s", nav)
			}
		})
	}
}

// blankTH matches a table header cell with nothing but white space in it.
var blankTH = regexp.MustCompile(`<th(\s[^>]*)?>\s*</th>`)

// th matches the start tag of a table header cell.
var th = regexp.MustCompile(`<th[\s>]`)

// TestEmptyTableHeaderIsDataCell: a Markdown table whose corner cell is
// empty (the computer-science book's "| | CSV | JSON |") has no empty
// header cell in the book (Ace: empty-table-header), while header cells
// with text, an image or a formula stay headers.
func TestEmptyTableHeaderIsDataCell(t *testing.T) {
	for _, tc := range []struct {
		name, table string
		headers     int // <th> left in the document
	}{
		{"empty corner", `| | CSV | JSON |\n|---|---|---|\n| Shape | flat | nested |`, 2},
		{"blank corner", `|   | A |\n|---|---|\n| x | y |`, 1},
		{"no empty cell", `| Name | A |\n|---|---|\n| x | y |`, 2},
		{"image header", `| ![a red square](https://img.example/a.png) | A |\n|---|---|\n| x | y |`, 2},
		{"math header", `| $x$ | A |\n|---|---|\n| x | y |`, 2},
		{"all empty", `| | |\n|---|---|\n| x | y |`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := tree("en", node("Tables", map[string]string{"description": `"` + tc.table + `"`}))
			doc := string(unzippedFiles(t, render(t, tr, smallInfo(t)))["EPUB/text/p1.xhtml"])
			if !strings.Contains(doc, "<table") {
				t.Fatalf("no table:\n%s", doc)
			}
			if m := blankTH.FindString(doc); m != "" {
				t.Errorf("empty header cell %s:\n%s", m, doc)
			}
			if n := len(th.FindAllString(doc, -1)); n != tc.headers {
				t.Errorf("%d header cells, want %d:\n%s", n, tc.headers, doc)
			}
		})
	}
}

// TestConformsTo: a book claims EPUB Accessibility 1.1 at WCAG 2.1 AA
// (dcterms:conformsTo, which Ace found missing on every book) exactly when
// the claim is true: every image it shows has a text alternative and
// every link has text; a book with an image or a link without claims
// nothing and says why in its summary.
func TestConformsTo(t *testing.T) {
	for _, tc := range []struct {
		name, description string
		claims            bool
	}{
		{"no image", `"Text only."`, true},
		{"image with alt text", `"![a red square](https://img.example/a.png)"`, true},
		{"image without alt text", `"![](https://img.example/a.png)"`, false},
		{"one of two without", `"![a red square](https://img.example/a.png) ![](https://img.example/z.png)"`, false},
		{"failed image, shown as text", `"![](https://img.example/c.jpg)"`, true},
		{"link with text", `"[the web](https://example.org/)"`, true},
		{"link without text", `"[](https://example.org/)"`, false},
		{"link to the website without text, unlinked", `"[](../unit-2/)"`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := tree("en", node("Only", map[string]string{"description": tc.description}))
			p := parseOPF(t, unzippedFiles(t, render(t, tr, smallInfo(t))))
			got := p.meta("dcterms:conformsTo")
			if tc.claims && (len(got) != 1 || got[0] != ConformsTo) {
				t.Errorf("dcterms:conformsTo %q, want %q", got, ConformsTo)
			}
			if !tc.claims && len(got) != 0 {
				t.Errorf("dcterms:conformsTo %q on a book with an image or a link without text", got)
			}
			summary := strings.Join(p.meta("schema:accessibilitySummary"), " ")
			if says := strings.Contains(summary, "meets EPUB Accessibility 1.1"); says != tc.claims {
				t.Errorf("summary %q: claims conformance %v, want %v", summary, says, tc.claims)
			}
		})
	}
	// The sample books (images all with alt text) claim it.
	for _, tr := range aceTrees(t) {
		p := parseOPF(t, unzippedFiles(t, render(t, tr, sampleInfo(t, tr))))
		if got := p.meta("dcterms:conformsTo"); len(got) != 1 {
			t.Errorf("%s: dcterms:conformsTo %q", tr.Dir(), got)
		}
	}
}
