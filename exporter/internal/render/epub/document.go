package epub

import (
	"bytes"
	"encoding/xml"
	"html"
	"strconv"
	"strings"

	xhtmlnode "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/markup"
	"github.com/curex/curex/exporter/internal/render/xhtml"
)

// section writes the section of the node f, with id anchor, to body
// (HTML, which finishPart turns into XHTML), leaving it open. It returns
// the node's heading as text, for the table of contents, and its language
// when that is not the book's.
func (b *book) section(cr *content.Converter, body *strings.Builder, f flat, anchor string) (text, lang string, err error) {
	n := f.n
	level := min(1+f.depth, maxHeadingLevel)
	label := markup.Line(n.Label())
	title := markup.Line(n.Title)
	if strings.TrimSpace(title) == "" {
		title = b.m.T("untitled")
	}
	body.WriteString(`<section id="` + anchor + `" class="depth-` + strconv.Itoa(min(f.depth, 5)) + `"`)
	msgs := b.m
	var notice string
	if fallback := b.t.FallbackLocale(n); fallback != "" {
		lang = fallback
		msgs = b.words.For(lang)
		if attr := markup.Lang(lang); attr != "" {
			body.WriteString(` lang="` + attr + `"`)
		}
		if i18n.RTL(lang) != b.rtl {
			dir := "ltr"
			if i18n.RTL(lang) {
				dir = "rtl"
			}
			body.WriteString(` dir="` + dir + `"`)
		}
		name := markup.Line(b.info.LocaleNames[lang])
		if name == "" {
			name = markup.Line(lang)
		}
		notice = b.m.T("handbook_fallback", name)
	}
	body.WriteString(">\n<h" + strconv.Itoa(level) + ">")
	if label != "" && label != title {
		body.WriteString(`<span class="label">` + html.EscapeString(label) + `</span> `)
	}
	body.WriteString(html.EscapeString(title) + "</h" + strconv.Itoa(level) + ">\n")
	if notice != "" {
		// The notice is in the book's language, not the content's.
		body.WriteString(`<p class="fallback" lang="` + b.lang + `">` + html.EscapeString(notice) + "</p>\n")
	}
	out, err := cr.NodeLevel(n.Attributes, n.Title, msgs, anchor+"-", min(level+1, maxHeadingLevel))
	if err != nil {
		return "", "", err
	}
	body.WriteString(string(out))
	body.WriteString("\n")
	text = title
	if label != "" && label != title {
		text = label + " · " + title
	}
	return text, markup.Lang(lang), nil
}

// finishPart turns the HTML body of p into its XHTML document: links and
// images that would leave the book become text, and the document notes
// whether it holds MathML.
func (b *book) finishPart(p *part, body string) error {
	nodes, err := xhtml.Parse(strings.NewReader(body))
	if err != nil {
		return err
	}
	ids := map[string]bool{}
	for _, n := range nodes {
		collectIDs(n, ids)
	}
	for _, n := range nodes {
		b.fix(p, n, ids)
	}
	var out bytes.Buffer
	if err := xhtml.WriteNodes(&out, nodes); err != nil {
		return err
	}
	p.body = b.document(p.title, "", "bodymatter", out.Bytes())
	return nil
}

// collectIDs adds the ids of n and its descendants to ids.
func collectIDs(n *xhtmlnode.Node, ids map[string]bool) {
	for c := n; c != nil; c = next(c, n) {
		if c.Type != xhtmlnode.ElementNode {
			continue
		}
		for _, a := range c.Attr {
			if a.Key == "id" && a.Namespace == "" {
				ids[a.Val] = true
			}
		}
	}
}

// next returns the node after c in document order within top, or nil.
func next(c, top *xhtmlnode.Node) *xhtmlnode.Node {
	if c.FirstChild != nil {
		return c.FirstChild
	}
	for c != nil && c != top {
		if c.NextSibling != nil {
			return c.NextSibling
		}
		c = c.Parent
	}
	return nil
}

// fix makes n and its descendants stay inside the book: a link to an id
// the document lacks or to a relative URL (the website's pages) loses its
// link, an image not copied into the book becomes its alt text; a table
// header cell left with nothing in it (content.Converter writes a blank
// header cell as a data cell already; here an image with an empty alt
// text can leave one blank) becomes a data cell; it notes MathML and
// counts images and links without text.
func (b *book) fix(p *part, top *xhtmlnode.Node, ids map[string]bool) {
	for c := top; c != nil; {
		if c.Type != xhtmlnode.ElementNode {
			c = next(c, top)
			continue
		}
		switch {
		case c.Namespace == "math" && c.Data == "math":
			p.math, b.math = true, true
		case c.Namespace == "" && c.DataAtom == atom.A:
			if href, ok := attr(c, "href"); ok && !keepLink(href, ids) {
				unlink(c)
			} else if ok && isBlank(c) {
				b.blankLinks++
			}
		case c.Namespace == "" && c.DataAtom == atom.Th:
			if isBlank(c) {
				c.Data, c.DataAtom = "td", atom.Td
				removeAttr(c, "scope")
			}
		case c.Namespace == "" && c.DataAtom == atom.Img:
			src, _ := attr(c, "src")
			alt, _ := attr(c, "alt")
			if !strings.HasPrefix(src, "../"+imagesDir) {
				// Not a copy in the book: its alt text instead.
				t := &xhtmlnode.Node{Type: xhtmlnode.TextNode, Data: alt}
				c.Parent.InsertBefore(t, c)
				c.Parent.RemoveChild(c)
				c = next(t, top)
				continue
			}
			removeAttr(c, "loading")
			b.imgCount++
			if strings.TrimSpace(alt) != "" {
				b.altCount++
			}
		}
		c = next(c, top)
	}
}

// isBlank reports whether n holds no text but white space and no element
// (an image, a formula) that could stand for text.
func isBlank(n *xhtmlnode.Node) bool {
	for c := n.FirstChild; c != nil; c = next(c, n) {
		switch c.Type {
		case xhtmlnode.ElementNode:
			return false
		case xhtmlnode.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return false
			}
		}
	}
	return true
}

// keepLink reports whether a link to href stays a link in the book: to an
// id of the same document, or an absolute http, https or mailto URL.
func keepLink(href string, ids map[string]bool) bool {
	if id, ok := strings.CutPrefix(href, "#"); ok {
		return ids[id]
	}
	lower := strings.ToLower(href)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "mailto:")
}

// unlink turns the link a into a span that keeps its text and the
// attributes a span may have.
func unlink(a *xhtmlnode.Node) {
	a.Data, a.DataAtom = "span", atom.Span
	kept := a.Attr[:0]
	for _, at := range a.Attr {
		switch at.Key {
		case "id", "class", "lang", "dir", "title":
			kept = append(kept, at)
		}
	}
	a.Attr = kept
}

func attr(n *xhtmlnode.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func removeAttr(n *xhtmlnode.Node, key string) {
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != key {
			kept = append(kept, a)
		}
	}
	n.Attr = kept
}

// esc escapes s (cleaned of what XML cannot hold) for XML text and
// attribute values.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(markup.Line(s)))
	return b.String()
}

// document wraps body (XHTML) in an XHTML content document titled title.
// bodyType is the body's epub:type, and class its class; either may be
// empty.
func (b *book) document(title, class, bodyType string, body []byte) []byte {
	var d bytes.Buffer
	d.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<!DOCTYPE html>\n")
	d.WriteString(`<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="` + b.lang + `" xml:lang="` + b.lang + `"`)
	if b.rtl {
		d.WriteString(` dir="rtl"`)
	}
	d.WriteString(">\n<head>\n<meta charset=\"utf-8\"/>\n<title>" + esc(title) + "</title>\n")
	d.WriteString(`<link rel="stylesheet" type="text/css" href="../` + styleName + `"/>` + "\n</head>\n<body")
	if class != "" {
		d.WriteString(` class="` + class + `"`)
	}
	if bodyType != "" {
		d.WriteString(` epub:type="` + bodyType + `"`)
	}
	d.WriteString(">\n")
	d.Write(body)
	d.WriteString("</body>\n</html>\n")
	return d.Bytes()
}

// nav returns the navigation document: the table of contents, nested as
// the tree, and the landmarks.
func (b *book) nav() []byte {
	var d strings.Builder
	contents := b.m.T("table_of_contents")
	// role="doc-toc": assistive technology reads ARIA roles, not
	// epub:type (DAISY Ace's epub-type-has-matching-role).
	d.WriteString(`<nav epub:type="toc" id="toc" role="doc-toc">` + "\n<h1>" + esc(contents) + "</h1>\n<ol>\n")
	if len(b.toc) == 0 {
		d.WriteString(`<li><a href="` + pathIn(titleName) + `">` + esc(b.title) + "</a></li>\n")
	}
	prev := 0
	for i, e := range b.toc {
		switch {
		case i == 0:
		case e.depth > prev:
			d.WriteString("\n<ol>\n")
		default:
			d.WriteString("</li>\n")
			for j := e.depth; j < prev; j++ {
				d.WriteString("</ol>\n</li>\n")
			}
		}
		// A depth grows by one at most from a node to the next.
		prev = e.depth
		d.WriteString(`<li><a href="` + e.href + `"`)
		if e.lang != "" {
			d.WriteString(` lang="` + e.lang + `" xml:lang="` + e.lang + `"`)
		}
		d.WriteString(">" + esc(e.text) + "</a>")
	}
	if len(b.toc) > 0 {
		d.WriteString("</li>\n")
		for j := 0; j < prev; j++ {
			d.WriteString("</ol>\n</li>\n")
		}
	}
	d.WriteString("</ol>\n</nav>\n")
	d.WriteString(`<nav epub:type="landmarks" id="landmarks" hidden="">` + "\n<h2>" + esc(b.m.T("contents")) + "</h2>\n<ol>\n")
	d.WriteString(`<li><a epub:type="titlepage" href="` + pathIn(titleName) + `">` + esc(b.title) + "</a></li>\n")
	d.WriteString(`<li><a epub:type="toc" href="` + pathIn(navName) + `#toc">` + esc(contents) + "</a></li>\n")
	if len(b.units) > 0 {
		d.WriteString(`<li><a epub:type="bodymatter" href="` + pathIn(b.units[0].name) + `">` + esc(b.units[0].title) + "</a></li>\n")
	}
	d.WriteString("</ol>\n</nav>\n")
	return b.document(contents, "nav", "", []byte(d.String()))
}

// pathIn is the href of the document name from another in the same
// folder.
func pathIn(name string) string { return strings.TrimPrefix(name, textDir) }

// titlePage returns the title page: the curriculum, the variant chain,
// the locale, the content's date and the generator.
func (b *book) titlePage() []byte {
	var d strings.Builder
	name := b.t.CurriculumName
	if strings.TrimSpace(name) == "" {
		name = b.m.T("untitled")
	}
	d.WriteString(`<section class="titlepage" epub:type="titlepage">` + "\n<h1>" + esc(name) + "</h1>\n")
	chain := b.t.VariantChain
	if len(chain) == 0 && b.t.Variant != "" {
		chain = []string{b.t.CurriculumName, b.t.Variant}
	}
	if len(chain) > 1 {
		parts := make([]string, len(chain))
		for i, c := range chain {
			parts[i] = esc(c)
		}
		d.WriteString(`<p class="chain">` + esc(b.m.T("cover_variant")) + ": " + strings.Join(parts, " › ") + "</p>\n")
	}
	locale := b.info.LocaleName
	if locale == "" {
		locale = b.t.Locale
	}
	d.WriteString(`<p class="meta">` + esc(b.m.T("language")) + ": " + esc(locale) + "</p>\n")
	if !b.info.ContentDate.IsZero() {
		d.WriteString(`<p class="meta">` + esc(b.m.T("content_date")) + `: <time datetime="` +
			b.modified.Format("2006-01-02") + `">` + esc(b.m.Date(b.modified)) + "</time></p>\n")
	}
	if b.info.Generator != "" {
		d.WriteString(`<p class="meta">` + esc(b.m.T("generated_by", b.info.Generator)) + "</p>\n")
	}
	d.WriteString("</section>\n")
	return b.document(b.title, "", "frontmatter", []byte(d.String()))
}
