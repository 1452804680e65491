package html

import (
	"html/template"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// minOnThisPage is how many entries a node page's own table of contents
// needs before the page shows it. Four: a lesson of the sample with three
// short sections (objectives, time, standards) fits a laptop screen, and
// a contents box above them would be longer than what it saves; most
// lessons with a description of their own, or children, reach four.
const minOnThisPage = 4

// contentPrefix starts the id of every heading and footnote of a node
// page's content, so that none meets an id of the layout.
const contentPrefix = "c-"

// sectionsID is the id of the "In this section" heading of node.html,
// which lists the node's children.
const sectionsID = "in-this-section"

// onThisPage returns the table of contents of a node page: the <h2> and
// <h3> headings with an id in content (the description's headings and the
// attribute sections, see content.Converter.NodeLevel), each <h3> under the
// <h2> before it, then "In this section" when the node has children
// (children is its heading's text, "" when there are none). It returns nil
// when there are fewer than minOnThisPage entries in all.
//
// contentLang is the language of the content when it differs from the
// page's (a fallback page): the headings written by authors carry it,
// those curex adds (attribute labels, "In this section") do not. Section
// headings are told apart by their id, prefix then '-' ("c--materials").
func onThisPage(content template.HTML, prefix, children, contentLang string) []Heading {
	s := string(content)
	extra := 0
	if children != "" {
		extra = 1
	}
	// Most pages have few headings: count before parsing.
	if strings.Count(s, "<h2")+strings.Count(s, "<h3")+extra < minOnThisPage {
		return nil
	}
	var out []Heading
	n := 0
	for _, h := range headings(s) {
		e := Heading{Title: h.text, Href: "#" + h.id}
		if !strings.HasPrefix(h.id, prefix+"-") {
			e.Lang = contentLang
		}
		n++
		if h.level == 3 && len(out) > 0 {
			last := &out[len(out)-1]
			last.Children = append(last.Children, e)
			continue
		}
		out = append(out, e)
	}
	if children != "" {
		out = append(out, Heading{Title: children, Href: "#" + sectionsID})
		n++
	}
	if n < minOnThisPage {
		return nil
	}
	return out
}

// heading is one heading found in a page's content.
type heading struct {
	level    int
	id, text string
}

// headings returns the <h2> and <h3> elements of s that have an id, with
// their text: whitespace collapsed, without the TeX source MathML keeps in
// <annotation>. s is HTML that curex's content renderer wrote.
func headings(s string) []heading {
	var out []heading
	z := html.NewTokenizer(strings.NewReader(s))
	var cur *heading
	var text strings.Builder
	skip := 0 // depth inside elements whose text is not shown
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			switch {
			case cur == nil && (a == atom.H2 || a == atom.H3) && hasAttr:
				for {
					k, v, more := z.TagAttr()
					if string(k) == "id" && len(v) > 0 {
						cur = &heading{level: 2, id: string(v)}
						if a == atom.H3 {
							cur.level = 3
						}
						text.Reset()
					}
					if !more {
						break
					}
				}
			case cur != nil && (a == atom.Annotation || a == atom.AnnotationXml):
				skip++
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case cur != nil && (a == atom.Annotation || a == atom.AnnotationXml) && skip > 0:
				skip--
			case cur != nil && (a == atom.H2 && cur.level == 2 || a == atom.H3 && cur.level == 3):
				cur.text = strings.Join(strings.Fields(text.String()), " ")
				if cur.text != "" {
					out = append(out, *cur)
				}
				cur, skip = nil, 0
			}
		case html.TextToken:
			if cur != nil && skip == 0 {
				text.Write(z.Text())
			}
		}
	}
}
