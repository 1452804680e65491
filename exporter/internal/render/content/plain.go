package content

import (
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// plainParser parses Markdown for PlainText: the same block and inline
// syntax as Converter, without the typographer (plain text keeps straight
// quotes).
var plainParser = goldmark.New(goldmark.WithExtensions(
	extension.Table, extension.Strikethrough, extension.Linkify,
	extension.TaskList, extension.Footnote,
)).Parser()

// PlainText returns the text of a Markdown string without markup, for
// search indexes and meta descriptions: the first n runes (n <= 0: all),
// whitespace collapsed to single spaces. Code blocks, raw HTML and footnote
// definitions are left out; link text and image alt text are kept.
func PlainText(src string, n int) string {
	source := []byte(defuse(strings.ToValidUTF8(src, "\uFFFD")))
	doc := plainParser.Parse(text.NewReader(source))
	var b strings.Builder
	_ = ast.Walk(doc, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindHTMLBlock, east.KindFootnoteList:
			return ast.WalkSkipChildren, nil
		}
		b.WriteByte(' ')
		if f := c.FirstChild(); f != nil && f.Type() == ast.TypeInline {
			inlineText(&b, source, c)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return collapse(b.String(), n)
}

// collapse joins the words of s with single spaces and keeps the first n
// runes (n <= 0: all).
func collapse(s string, n int) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	runes := 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			if n > 0 && runes == n {
				break
			}
			b.WriteByte(' ')
			runes++
			space = false
		}
		if n > 0 && runes == n {
			break
		}
		b.WriteRune(r)
		runes++
	}
	return strings.TrimRightFunc(b.String(), unicode.IsSpace)
}
