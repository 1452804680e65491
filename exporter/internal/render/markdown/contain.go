package markdown

import (
	"strings"

	"github.com/curex/curex/exporter/internal/render/content"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// sentinel is what follows a block of received Markdown in a file, as far
// as containment is concerned: a level-2 heading after a blank line.
const sentinel = "\n\n## x\n"

// containment keeps received Markdown from swallowing what follows it. It
// holds a CommonMark parser; it is not safe for concurrent use.
type containment struct {
	p parser.Parser
}

func newContainment() *containment {
	return &containment{p: parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(),
		parser.WithParagraphTransformers(),
	)}
}

// normalize prepares received Markdown for a file: line endings become
// "\n" and NUL becomes U+FFFD (as every CommonMark parser reads them
// anyway), invalid UTF-8 becomes U+FFFD, leading blank lines and trailing
// white space go.
func normalize(s string) string {
	s = validUTF8(s)
	if strings.ContainsAny(s, "\r\x00") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	s = strings.TrimRight(s, " \t\n")
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok || strings.Trim(line, " \t") != "" {
			break
		}
		s = rest
	}
	return s
}

// block returns received Markdown, normalized, with its math delimiters
// in the bundle's forms (mathSource), that cannot swallow a
// heading written after it: a fenced code block or an HTML block of the
// kinds that only end at a closing marker (<script>, <pre>, <style>,
// <textarea>, comments, processing instructions, declarations, CDATA) left
// open at its end gets that marker on a line of its own, which changes
// nothing in how it renders on its own. Should that not suffice, the text
// is shown as a fenced code block.
func (c *containment) block(s string) string {
	s = received(s)
	if !mayLeak(s) {
		return s
	}
	for range 4 {
		last := c.leak(s)
		if last == nil {
			return s
		}
		closer := closing(last, s)
		if closer == "" {
			break
		}
		s += "\n" + closer
	}
	if c.leak(s) == nil {
		return s
	}
	return content.Fence(s, "")
}

// received returns received Markdown as the bundle writes it: normalized,
// with its math delimiters in the bundle's forms (mathSource), and
// defanged (content.Defang), so that raw HTML shows as text and links to
// refused schemes as their text, as on the website, in whichever
// renderer publishes the bundle.
func received(s string) string { return content.Defang(mathSource(normalize(s))) }

// leak parses s followed by the sentinel and returns the block that
// swallowed the sentinel, nil when there is none.
func (c *containment) leak(s string) ast.Node {
	src := []byte(s + sentinel)
	doc := c.p.Parse(text.NewReader(src))
	if h, ok := doc.LastChild().(*ast.Heading); ok && h.Level == 2 {
		return nil
	}
	return doc.LastChild()
}

// closing returns the line that closes the open block n of src, "" when
// there is none to give.
func closing(n ast.Node, src string) string {
	if n == nil {
		return ""
	}
	pos := n.Pos()
	if pos < 0 || pos >= len(src) {
		return ""
	}
	switch n := n.(type) {
	case *ast.FencedCodeBlock:
		c := src[pos]
		if c != '`' && c != '~' {
			return ""
		}
		end := pos
		for end < len(src) && src[end] == c {
			end++
		}
		return strings.Repeat(string(c), end-pos)
	case *ast.HTMLBlock:
		switch n.HTMLBlockType {
		case ast.HTMLBlockType1:
			head := strings.ToLower(src[pos+1 : min(len(src), pos+10)])
			for _, tag := range []string{"script", "pre", "style", "textarea"} {
				if strings.HasPrefix(head, tag) {
					return "</" + tag + ">"
				}
			}
		case ast.HTMLBlockType2:
			return "-->"
		case ast.HTMLBlockType3:
			return "?>"
		case ast.HTMLBlockType4:
			return ">"
		case ast.HTMLBlockType5:
			return "]]>"
		}
	}
	return ""
}

// mayLeak reports whether s has a line that could open a block which a
// blank line does not end: "```", "~~~" or "<" after at most three spaces.
// Such blocks inside list items and block quotes end with their container
// and need no check.
func mayLeak(s string) bool {
	for line := range strings.Lines(s) {
		i := 0
		for i < 3 && i < len(line) && line[i] == ' ' {
			i++
		}
		rest := line[i:]
		if strings.HasPrefix(rest, "```") || strings.HasPrefix(rest, "~~~") || strings.HasPrefix(rest, "<") {
			return true
		}
	}
	return false
}
