package handbook

import (
	"bytes"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/markup"
	"github.com/curex/curex/exporter/internal/render/mathstyle"
)

// Limits of the document's structure.
const (
	// maxHeadingLevel is the deepest heading level; deeper nodes keep it.
	maxHeadingLevel = 6
	// maxTOCNesting is how many lists deep the table of contents nests;
	// deeper nodes are listed at the deepest level.
	maxTOCNesting = 6
	// maxDepthClass is the largest hb-dN class of a section.
	maxDepthClass = 5
)

// Paper sizes for Info.Paper.
const (
	PaperA4     = "a4"
	PaperLetter = "letter"
)

// Info is what the handbook shows beyond the tree.
type Info struct {
	// LocaleName is the locale's own name ("Español"); empty: the code.
	LocaleName string
	// TranslationProgress and PublishedProgress are the locale's
	// percentages, shown on the cover of a locale other than the primary.
	TranslationProgress int
	PublishedProgress   int
	// ContentDate is the date of the content (the tree's ResolvedAt, or
	// SOURCE_DATE_EPOCH), shown on the cover as a date in UTC; never the
	// wall clock, so output is reproducible. Zero: not shown.
	ContentDate time.Time
	// SiteHome is an optional relative link back to the website's contents
	// page of the same export ("index.html"); empty: no link. It is a
	// screen-only link: not printed, and left out of the PDF copy.
	SiteHome string
	// PDF is set when rendering the copy that Chromium prints: screen-only
	// parts are left out.
	PDF bool
	// Paper is PaperA4 (also when empty) or PaperLetter.
	Paper string
	// LocaleNames are the names of the curriculum's locales by code
	// ("en": "English"), used to say which language an untranslated node
	// is shown in; a missing code is shown as the code.
	LocaleNames map[string]string
	// Images shows the images content refers to from their local copies
	// (render.Options.Images), with paths relative to the handbook's
	// place in the output; nil leaves them remote.
	Images content.Images
}

// Page is what the handbook templates receive.
type Page struct {
	// Lang is the locale's code, for <html lang>; RTL is set for
	// right-to-left locales.
	Lang string
	RTL  bool
	// Title is the document's <title>.
	Title string
	// Paper is PaperA4 or PaperLetter.
	Paper string
	// PDF is set in the copy Chromium prints.
	PDF bool
	// Generator names the program; empty: not shown.
	Generator string
	// SiteHome is the link back to the website's contents page, or empty
	// (always empty when PDF).
	SiteHome string
	// Curriculum is the base curriculum's name; CurriculumLang its language
	// (the primary locale) when that differs from Lang.
	Curriculum     string
	CurriculumLang string
	// Chain lists the curriculum names from the base to the variant.
	Chain []string
	// IsBase is set for the base curriculum's handbook.
	IsBase bool
	// LocaleName is the locale's name.
	LocaleName string
	// ContentDate is the localized date of the content and ContentDateISO
	// its yyyy-mm-dd form; both empty when unknown.
	ContentDate, ContentDateISO string
	// ShowProgress is set for a locale other than the primary one, where
	// Translated and Published (percentages) are meaningful.
	ShowProgress          bool
	Translated, Published int
	// CSS is the style sheet, including the highlighting of code, and
	// the rules and font of math when the handbook holds math.
	CSS template.CSS
	// Sections are the nodes in reading order.
	Sections []*Section
	// Parts group Sections by top-level node: each starts a page and has
	// its own running header.
	Parts []*Part
	// TOCEnd closes the table of contents' open lists after the last
	// entry (one element per list).
	TOCEnd []struct{}

	msgs i18n.Messages
}

// T returns the user-interface string key in the page's language,
// formatted with args.
func (p *Page) T(key string, args ...any) string { return p.msgs.T(key, args...) }

// Section is one node of the handbook.
type Section struct {
	// Index is the node's position in reading order, from 0.
	Index int
	// Anchor is the section's id ("n12").
	Anchor string
	// Depth is 0 for top-level nodes (units, appendices), 1 for their
	// children, and so on; DepthClass is Depth capped at 5, for CSS.
	Depth, DepthClass int
	// Level is the heading level, 2 to 6.
	Level int
	// Type is the node type's name ("lesson").
	Type string
	// Label is the numbering ("Unit 1"), possibly empty.
	Label string
	// Title is the node's title (a placeholder when it has none).
	Title string
	// Lang and Dir are the language and direction of the node's title and
	// content when they differ from the page's (fallback content); empty
	// otherwise.
	Lang, Dir string
	// Fallback is the notice shown above untranslated content, or empty.
	Fallback string
	// Content is the node's attributes as HTML, from the content renderer.
	Content template.HTML
	// TOCOpen is set when the entry starts a nested list in the table of
	// contents (it is the first child of the entry before it).
	TOCOpen bool
	// TOCClose closes nested lists before the entry (one element per list).
	TOCClose []struct{}
}

// Part is a top-level node (a unit, an appendix) with every node under
// it, in reading order. Each part is printed on pages of its own, named
// after its ID, whose running header is Header.
type Part struct {
	// ID is the part's element id and page name ("p3").
	ID string
	// Header is the running header: the top-level node's label and title.
	Header string
	// Sections are the top-level node's section followed by its
	// descendants'.
	Sections []*Section
}

// flat is a node in reading order with its depth.
type flat struct {
	n     *model.Node
	depth int
}

// flatten lists the nodes of t in reading order with their depth, without
// recursion.
func flatten(t *model.Tree) []flat {
	type frame struct {
		n     *model.Node
		depth int
	}
	var out []flat
	stack := make([]frame, 0, 64)
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		stack = append(stack, frame{t.Nodes[i], 0})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.n == nil {
			continue
		}
		out = append(out, flat(f))
		for i := len(f.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, frame{f.n.Children[i], f.depth + 1})
		}
	}
	return out
}

// Render returns the handbook of t: one self-contained HTML document.
func (r *Renderer) Render(t *model.Tree, info Info) ([]byte, error) {
	if t == nil {
		return nil, fmt.Errorf("handbook: no tree")
	}
	paper, err := paperSize(info.Paper)
	if err != nil {
		return nil, fmt.Errorf("handbook %s: %w", t.Dir(), err)
	}
	m := r.opts.Words.For(t.Locale)
	p := r.frontMatter(t, info, paper, m)
	cr := r.content
	if info.Images != nil {
		cr = cr.WithImages(info.Images, layout.Handbook(t.Export))
	}
	if err := r.addSections(p, cr, t, info, m); err != nil {
		return nil, err
	}
	for _, s := range p.Sections {
		if mathstyle.Holds([]byte(s.Content)) {
			p.CSS += "\n\n" + r.mathCSS
			break
		}
	}
	var buf bytes.Buffer
	if err := r.tmpl.ExecuteTemplate(&buf, rootTemplate, p); err != nil {
		return nil, fmt.Errorf("handbook %s: %w", t.Dir(), err)
	}
	return buf.Bytes(), nil
}

// frontMatter is the Page of t without its sections: what the cover, the
// title and the running headers show.
func (r *Renderer) frontMatter(t *model.Tree, info Info, paper string, m i18n.Messages) *Page {
	p := &Page{
		Lang: markup.Lang(t.Locale), RTL: i18n.RTL(t.Locale), Paper: paper, PDF: info.PDF,
		Generator: markup.Line(r.opts.Generator), Curriculum: markup.Line(t.CurriculumName),
		IsBase: t.Variant == "", LocaleName: markup.Line(info.LocaleName), CSS: r.css, msgs: m,
	}
	if !info.PDF {
		p.SiteHome = info.SiteHome
	}
	if p.LocaleName == "" {
		p.LocaleName = markup.Line(t.Locale)
	}
	if !t.InPrimaryLocale() {
		p.CurriculumLang = markup.Lang(t.PrimaryLocale)
		p.ShowProgress = true
		p.Translated, p.Published = clampPercent(info.TranslationProgress), clampPercent(info.PublishedProgress)
	}
	for _, name := range t.VariantChain {
		p.Chain = append(p.Chain, markup.Line(name))
	}
	if len(p.Chain) == 0 {
		p.Chain = []string{p.Curriculum}
		if t.Variant != "" {
			p.Chain = append(p.Chain, markup.Line(t.Variant))
		}
	}
	if !info.ContentDate.IsZero() {
		d := info.ContentDate.UTC()
		p.ContentDate = m.Date(d)
		p.ContentDateISO = d.Format(time.DateOnly)
	}
	title := []string{m.T("handbook"), isolate(p.Curriculum)}
	if t.Variant != "" {
		title = append(title, isolate(markup.Line(t.Variant)))
	}
	p.Title = strings.Join(append(title, isolate(p.LocaleName)), " · ")
	return p
}

// addSections adds to p a Section for every node of t in reading order,
// grouped into parts (one per top-level node), with the nesting of the
// table of contents' lists.
func (r *Renderer) addSections(p *Page, cr *content.Converter, t *model.Tree, info Info, m i18n.Messages) error {
	nodes := flatten(t)
	p.Sections = make([]*Section, 0, len(nodes))
	prevNest := -1
	for i, f := range nodes {
		s, err := r.section(cr, t, info, m, i, f)
		if err != nil {
			return err
		}
		// The table of contents' lists: nest is the entry's list level,
		// which grows by one at most from one entry to the next.
		nest := min(f.depth, maxTOCNesting-1)
		switch {
		case prevNest >= 0 && nest > prevNest:
			s.TOCOpen = true
		case prevNest > nest:
			s.TOCClose = make([]struct{}, prevNest-nest)
		}
		prevNest = nest
		p.Sections = append(p.Sections, s)
		if f.depth == 0 || len(p.Parts) == 0 {
			p.Parts = append(p.Parts, &Part{ID: "p" + strconv.Itoa(len(p.Parts)), Header: runningHeader(s)})
		}
		part := p.Parts[len(p.Parts)-1]
		part.Sections = append(part.Sections, s)
	}
	if prevNest > 0 {
		p.TOCEnd = make([]struct{}, prevNest)
	}
	return nil
}

// section builds the Section of the node at index i in reading order.
func (r *Renderer) section(cr *content.Converter, t *model.Tree, info Info, m i18n.Messages, i int, f flat) (*Section, error) {
	n := f.n
	s := &Section{
		Index: i, Anchor: "n" + strconv.Itoa(i), Depth: f.depth, DepthClass: min(f.depth, maxDepthClass),
		Level: min(2+f.depth, maxHeadingLevel), Type: markup.Line(n.NodeType.Name), Label: markup.Line(n.Label()), Title: markup.Line(n.Title),
	}
	if strings.TrimSpace(s.Title) == "" {
		s.Title = m.T("untitled")
	}
	// Attribute labels are in the content's language, which the content's
	// lang attribute declares.
	contentMsgs := m
	if lang := t.FallbackLocale(n); lang != "" {
		contentMsgs = r.opts.Words.For(lang)
		s.Lang = markup.Lang(lang)
		if i18n.RTL(lang) != i18n.RTL(t.Locale) {
			s.Dir = "ltr"
			if i18n.RTL(lang) {
				s.Dir = "rtl"
			}
		}
		name := markup.Line(info.LocaleNames[lang])
		if name == "" {
			name = markup.Line(lang)
		}
		s.Fallback = m.T("handbook_fallback", name)
	}
	// Attribute headings sit one level below the node's; ids start with the
	// section's anchor, which no API id can influence.
	html, err := cr.NodeLevel(n.Attributes, n.Title, contentMsgs, s.Anchor+"-", min(s.Level+1, maxHeadingLevel))
	if err != nil {
		return nil, fmt.Errorf("handbook %s: node %d (%q): %w", t.Dir(), i, n.ID, err)
	}
	s.Content = html
	return s, nil
}

// maxHeaderRunes is the longest running header; longer ones are cut.
const maxHeaderRunes = 90

// runningHeader is the running header of a part starting with s: "Unit 1 ·
// Title", cut to maxHeaderRunes. The template writes it into a CSS string,
// which html/template escapes.
func runningHeader(s *Section) string {
	h := s.Title
	if s.Label != "" {
		h = s.Label + " · " + h
	}
	h = strings.Join(strings.Fields(h), " ")
	if utf8.RuneCountInString(h) <= maxHeaderRunes {
		return h
	}
	n := 0
	for i := range h {
		if n == maxHeaderRunes-1 {
			return strings.TrimSpace(h[:i]) + "…"
		}
		n++
	}
	return h
}

// paperSize validates Info.Paper.
func paperSize(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", PaperA4:
		return PaperA4, nil
	case PaperLetter:
		return PaperLetter, nil
	}
	return "", fmt.Errorf("unknown paper size %q (want %q or %q)", s, PaperA4, PaperLetter)
}

// isolate wraps s in FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, the
// plain-text <bdi>, for the <title>.
func isolate(s string) string { return "\u2068" + s + "\u2069" }

// clampPercent keeps a percentage within 0 and 100.
func clampPercent(p int) int { return max(0, min(p, 100)) }
