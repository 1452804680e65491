package content

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"github.com/curex/curex/exporter/internal/render/mathml"
)

// maxHighlight is the largest code block chroma highlights; larger blocks
// are shown escaped but plain, so that one huge block cannot make a page
// slow to build.
const maxHighlight = 64 << 10

// externalRel is the rel of every absolute link.
const externalRel = "noopener noreferrer nofollow"

// safeRenderer replaces goldmark's renderers for every node that can carry
// author-controlled URLs or markup.
type safeRenderer struct {
	r *Converter
}

// RegisterFuncs implements renderer.NodeRenderer.
func (s *safeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindLink, s.renderLink)
	reg.Register(ast.KindAutoLink, s.renderAutoLink)
	reg.Register(ast.KindImage, s.renderImage)
	reg.Register(ast.KindRawHTML, s.renderRawHTML)
	reg.Register(ast.KindHTMLBlock, s.renderHTMLBlock)
	reg.Register(ast.KindFencedCodeBlock, s.renderFencedCodeBlock)
	reg.Register(ast.KindCodeBlock, s.renderCodeBlock)
	reg.Register(kindMathInline, s.renderMathInline)
	reg.Register(kindMathBlock, s.renderMathBlock)
	reg.Register(east.KindTableCell, s.renderTableCell)
}

// renderTableCell writes a cell of a GFM table as goldmark does (align
// attribute), except that a header cell with nothing in it (the corner of
// "| | CSV | JSON |") is a data cell: a header names its column, an empty
// one names nothing, and screen readers announce it as an empty header
// (axe-core's and DAISY Ace's empty-table-header). Every format that shows
// content gets the rule from here.
func (s *safeRenderer) renderTableCell(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*east.TableCell)
	tag := "td"
	if n.Parent().Kind() == east.KindTableHeader && !blankCell(n, source) {
		tag = "th"
	}
	if !entering {
		_, _ = w.WriteString("</" + tag + ">\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<" + tag)
	if n.Alignment != east.AlignNone {
		_, _ = w.WriteString(` align="` + n.Alignment.String() + `"`)
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

// blankCell reports whether a table cell holds nothing but white space:
// no text, and no image or formula that could stand for text.
func blankCell(n ast.Node, source []byte) bool {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok || len(bytes.TrimSpace(t.Segment.Value(source))) != 0 {
			return false
		}
	}
	return true
}

// resolveDest decodes backslash escapes and character references in a link
// destination or title, exactly once.
func resolveDest(v []byte) []byte {
	v = util.UnescapePunctuations(v)
	v = util.ResolveNumericReferences(v)
	return util.ResolveEntityNames(v)
}

func writeHref(w util.BufWriter, dest []byte, kind urlKind) {
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(util.EscapeHTML(util.URLEscape(dest, false)))
	_ = w.WriteByte('"')
	if kind == urlExternal {
		_, _ = w.WriteString(` rel="` + externalRel + `"`)
	}
}

func writeTitle(w util.BufWriter, title []byte) {
	if title == nil {
		return
	}
	_, _ = w.WriteString(` title="`)
	html.DefaultWriter.Write(w, title)
	_ = w.WriteByte('"')
}

func (s *safeRenderer) renderLink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	dest := resolveDest(n.Destination)
	kind := destKind(dest)
	if !linkAllowed(kind) {
		// Keep the text, drop the link.
		return ast.WalkContinue, nil
	}
	if entering {
		writeHref(w, dest, kind)
		writeTitle(w, n.Title)
		_ = w.WriteByte('>')
	} else {
		_, _ = w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

func (s *safeRenderer) renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	url := n.URL(source)
	label := n.Label(source)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
		url = append([]byte("mailto:"), url...)
	}
	kind := destKind(url)
	if !linkAllowed(kind) {
		_, _ = w.Write(util.EscapeHTML(label))
		return ast.WalkContinue, nil
	}
	writeHref(w, url, kind)
	_ = w.WriteByte('>')
	_, _ = w.Write(util.EscapeHTML(label))
	_, _ = w.WriteString("</a>")
	return ast.WalkContinue, nil
}

func (s *safeRenderer) renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	var alt strings.Builder
	inlineText(&alt, source, n)
	dest := resolveDest(n.Destination)
	if !imageAllowed(destKind(dest)) {
		// Keep the alt text, drop the image.
		_, _ = w.WriteString(escape(alt.String()))
		return ast.WalkSkipChildren, nil
	}
	writeImage(w, n, dest, alt.String(), destKind(dest))
	return ast.WalkSkipChildren, nil
}

// renderRawHTML shows inline HTML as escaped text; a lone comment is dropped.
func (s *safeRenderer) renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	var raw []byte
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		raw = append(raw, seg.Value(source)...)
	}
	if isComment(raw) {
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.Write(util.EscapeHTML(raw))
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock shows block HTML as escaped, preformatted text; a block
// that is only a comment is dropped.
func (s *safeRenderer) renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.HTMLBlock)
	var raw []byte
	for i := 0; i < n.Lines().Len(); i++ {
		line := n.Lines().At(i)
		raw = append(raw, line.Value(source)...)
	}
	if n.HasClosure() {
		raw = append(raw, n.ClosureLine.Value(source)...)
	}
	if isComment(raw) {
		return ast.WalkSkipChildren, nil
	}
	raw = bytes.TrimRight(raw, "\n")
	_, _ = w.WriteString(`<pre class="raw-html"><code>`)
	_, _ = w.Write(util.EscapeHTML(raw))
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

// isComment reports whether raw is exactly one HTML comment.
func isComment(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	if !bytes.HasPrefix(raw, []byte("<!--")) {
		return false
	}
	end := bytes.Index(raw[4:], []byte("-->"))
	return end >= 0 && 4+end+3 == len(raw)
}

// codeLanguage returns the safe token of a fence's language (goldmark's
// Language: the first word of its info string), as mathml.LanguageName
// reads it: the one reading of a fence's language for highlighting and
// for math.
func codeLanguage(info []byte) string {
	return mathml.LanguageName(string(info))
}

// Code blocks are <pre tabindex="0">: a line wider than the page scrolls
// sideways inside the block, and a reader without a pointer can only
// scroll what takes the keyboard focus (as display math does).

// renderCodeBlock writes an indented code block, escaped, never
// highlighted (it names no language).
func (s *safeRenderer) renderCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<pre tabindex="0"><code>`)
	lines := node.Lines()
	for i := 0; i < lines.Len(); i++ {
		line := lines.At(i)
		_, _ = w.Write(util.EscapeHTML(line.Value(source)))
	}
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

// renderFencedCodeBlock writes a fenced code block: highlighted when it
// names a language chroma knows, display math for "math", else escaped.
func (s *safeRenderer) renderFencedCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	lang := codeLanguage(n.Language(source))
	code := codeOf(n, source)
	if lang == "math" {
		return s.displayMath(w, node, source, "```math\n"+string(code)+"```")
	}
	if lang != "" && highlightable(code) {
		out, err := s.r.highlight(lang, code)
		if err != nil {
			return ast.WalkStop, err
		}
		if out != nil {
			_, _ = w.WriteString(`<pre class="chroma" tabindex="0"><code class="language-` + lang + `" data-lang="` + lang + `">`)
			_, _ = w.Write(out)
			_, _ = w.WriteString("</code></pre>\n")
			return ast.WalkSkipChildren, nil
		}
	}
	_, _ = w.WriteString(`<pre tabindex="0"><code`)
	if lang != "" {
		_, _ = w.WriteString(` class="language-` + lang + `"`)
	}
	_ = w.WriteByte('>')
	_, _ = w.Write(util.EscapeHTML(code))
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

// inlineText appends the plain text of n's inline descendants to b.
func inlineText(b *strings.Builder, source []byte, n ast.Node) {
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || c == n {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			if t.IsRaw() {
				b.Write(t.Segment.Value(source))
			} else {
				b.Write(resolveDest(t.Segment.Value(source)))
			}
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			if t.IsCode() {
				// Typographer output: character references.
				b.Write(util.ResolveEntityNames(util.ResolveNumericReferences(t.Value)))
			} else {
				b.Write(t.Value)
			}
		case *ast.CodeSpan:
			for cc := t.FirstChild(); cc != nil; cc = cc.NextSibling() {
				if tt, ok := cc.(*ast.Text); ok {
					b.Write(tt.Segment.Value(source))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			b.Write(t.Label(source))
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// codeOf returns the text of a fenced code block.
func codeOf(n *ast.FencedCodeBlock, source []byte) []byte {
	var code []byte
	for i := 0; i < n.Lines().Len(); i++ {
		line := n.Lines().At(i)
		code = append(code, line.Value(source)...)
	}
	return code
}

// highlightable reports whether code is within the bounds of what is
// highlighted (see highlight.go): at most maxHighlight bytes, no line over
// maxHighlightLine.
func highlightable(code []byte) bool {
	if len(code) > maxHighlight {
		return false
	}
	for line := range bytes.Lines(code) {
		if len(line) > maxHighlightLine {
			return false
		}
	}
	return true
}
