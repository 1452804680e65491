package content

import (
	"strings"
	"unicode"
	"unicode/utf8"

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
	src = strings.ToValidUTF8(src, "\uFFFD")
	if noMarkup(src) {
		return collapse(src, n) // what the parse would give, without it
	}
	return parsedText(src, n)
}

// noMarkup reports whether s is text that no Markdown construct can
// change: its lines are empty or start with a letter or a non-ASCII
// rune that is not a space (no block starts there: no indentation,
// marker, fence, table or heading), and it holds none of the ASCII
// characters inline syntax or a table needs (emphasis, code, links,
// images, autolinks, raw HTML, entities, escapes, strikethrough, pipes)
// and no tab, carriage return or NUL (which the parser replaces). Parsing such a string gives one
// paragraph a line group, whose text is s with its line breaks as
// spaces (FuzzPlainTextFastPath compares the two). Titles, codes, short
// values and many descriptions are such text: most of the search
// index's strings skip the parse.
func noMarkup(s string) bool {
	lineStart := true
	for _, r := range s {
		switch {
		case r == '\n':
			lineStart = true
			continue
		case lineStart && r < utf8.RuneSelf && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'):
			return false
		case lineStart && unicode.IsSpace(r):
			return false
		case r < utf8.RuneSelf && inlineMarkup[r]:
			return false
		}
		lineStart = false
	}
	return true
}

// inlineMarkup are the ASCII characters noMarkup refuses anywhere: those
// of inline syntax and tables, and the tab, carriage return and NUL the
// parser replaces.
var inlineMarkup = [utf8.RuneSelf]bool{
	'*': true, '_': true, '`': true, '[': true, ']': true, '<': true, '&': true,
	'\\': true, '~': true, '|': true, '\t': true, '\r': true, 0: true,
}

// parsedText is PlainText of src, valid UTF-8, by parsing it.
func parsedText(src string, n int) string {
	source := []byte(defuse(src))
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
	if collapsed(s, n) {
		return s // what recollapse gives, without the copy
	}
	return recollapse(s, n)
}

// collapsed reports whether collapse leaves s as it is: s is valid UTF-8
// of at most n runes (n <= 0: any number) whose only white space is
// single spaces between words (FuzzCollapse compares it with
// recollapse). Most of the search index's texts are.
func collapsed(s string, n int) bool {
	runes := 0
	space := true // a space at the start is dropped
	for _, r := range s {
		switch {
		case r == ' ':
			if space {
				return false
			}
			space = true
		case r == utf8.RuneError: // maybe a byte of invalid UTF-8
			return false
		case r < utf8.RuneSelf && r > ' ' && r != 0x7f, r >= utf8.RuneSelf && !unicode.IsSpace(r):
			space = false
		default: // other white space, and control characters
			return false
		}
		runes++
	}
	return (s == "" || !space) && (n <= 0 || runes <= n)
}

// recollapse is collapse of s, written out.
func recollapse(s string, n int) string {
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
