package content

import (
	"slices"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Defang returns received Markdown rewritten so that a renderer which
// trusts its input (MkDocs, mdBook, Hugo with raw HTML on) shows what a
// curex page shows, and nothing that runs:
//
//   - raw HTML shows as text, as on the website: an HTML block at the top
//     level becomes a fenced code block, every other '<' of raw HTML
//     becomes "&lt;"; a lone HTML comment is dropped;
//   - a '<' anywhere in text becomes "&lt;" too (written "\<" it becomes
//     "&lt;"), so that a renderer laxer than CommonMark about what a tag
//     is (Python-Markdown) finds none;
//   - a link or an image whose destination the website refuses (a scheme
//     other than http, https and mailto, judged as LinkAllowed judges)
//     loses its brackets and destination and keeps its text; an autolink
//     to such a destination shows as text.
//
// Code spans, code blocks and math are left as they are. Everything
// else comes back byte for byte; a string without '<' and '[' comes back
// unchanged without a parse.
//
// The string is read the way the website reads it (GFM, footnotes, math)
// and, to close the gap between renderers with and without footnotes, the
// way a renderer without footnotes reads it; rewriting repeats until
// both readings find nothing, since removing brackets can make new
// syntax. Should that take more than a few rounds, the whole string is
// shown as a fenced code block. Defang is safe for concurrent use.
func Defang(src string) string { return defang(src, true) }

// DefangNested is Defang for Markdown that goes inside a list item or a
// table cell, where a fenced block would not be read as one by every
// renderer (Python-Markdown reads fences at the top level only) or would
// break the cell: an HTML block shows as text with its '<' escaped, and
// should the rewriting not settle, every '<' becomes "&lt;" and every
// bracket is backslash-escaped instead. It keeps a one-line string on one
// line.
func DefangNested(src string) string { return defang(src, false) }

// defang is Defang, or DefangNested when block is false.
func defang(src string, block bool) (out string) {
	if !strings.ContainsAny(src, "<[") {
		return src
	}
	src = defuse(src)
	give := func() string {
		if block {
			return Fence(src, "")
		}
		return strings.NewReplacer("<", "&lt;", "[", `\[`, "]", `\]`).Replace(src)
	}
	defer func() {
		if v := recover(); v != nil {
			onPanic(v)
			out = give()
		}
	}()
	s := src
	for range maxDefangRounds {
		clean := true
		for _, r := range readings() {
			if !r.needed(s) {
				continue
			}
			next, changed := defangOnce(r, s, block)
			if changed {
				s, clean = next, false
			}
		}
		if clean {
			return s
		}
	}
	return give()
}

// maxDefangRounds bounds the rewriting: real content needs one round,
// hostile content that builds syntax out of removed brackets a few more.
const maxDefangRounds = 6

// Fence returns s as a fenced code block with the info string info,
// fenced with more backticks than any run in s so that nothing in s
// closes it.
func Fence(s, info string) string {
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + info + "\n" + strings.TrimSuffix(s, "\n") + "\n" + f
}

// reading is one way of reading Markdown that Defang checks.
type reading struct {
	p         parser.Parser
	math      bool // reads TeX math as curex does
	footnotes bool // reads footnotes
}

// needed reports whether r can read s differently from the website's
// reading (footnotes and math): without footnotes only when s may hold
// one ("[^"), without math only when s may hold TeX ('$' or '\').
func (r reading) needed(s string) bool {
	if !r.footnotes && !strings.Contains(s, "[^") {
		return false
	}
	return r.math || strings.ContainsAny(s, "$\\")
}

// readings returns the ways Defang reads a string: with and without
// footnotes, with and without math, so that what one renderer reads as a
// footnote or as TeX and another as a link or a tag is safe in both. The
// link and math parsers are wrapped so that each node records where its
// source ends. goldmark parsers are safe for concurrent use once built.
var readings = sync.OnceValue(func() []reading {
	build := func(footnotes, math bool) reading {
		var inline []util.PrioritizedValue
		for _, v := range parser.DefaultInlineParsers() {
			if ip, ok := v.Value.(parser.InlineParser); ok && string(ip.Trigger()) == "![]" {
				v = util.Prioritized(&spans{inline: ip}, v.Priority)
			}
			inline = append(inline, v)
		}
		exts := []goldmark.Extender{extension.NewTable(), extension.Strikethrough, extension.Linkify, extension.TaskList}
		if footnotes {
			exts = append(exts, extension.NewFootnote())
		}
		var opts []parser.Option
		if math {
			opts = append(opts,
				parser.WithBlockParsers(util.Prioritized(&spans{block: mathBlockParser{}}, 50)),
				parser.WithInlineParsers(util.Prioritized(&spans{inline: mathInlineParser{}}, 50)))
		}
		p := parser.NewParser(
			parser.WithBlockParsers(parser.DefaultBlockParsers()...),
			parser.WithInlineParsers(inline...),
			parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		)
		md := goldmark.New(goldmark.WithParser(p), goldmark.WithExtensions(exts...), goldmark.WithParserOptions(opts...))
		return reading{p: md.Parser(), math: math, footnotes: footnotes}
	}
	return []reading{build(true, true), build(false, true), build(true, false), build(false, false)}
})

// spansKey holds, in a parse's context, the source segments spans
// recorded.
var spansKey = parser.NewContextKey()

// spans wraps an inline parser (goldmark's link parser, curex's inline
// math) or a block parser (display math) and records, for the link and
// math nodes they make, where their source lies: for a link or an image,
// from its closing ']' to the end of its destination (goldmark keeps where
// a link starts, Pos, but not where it ends); for math, the whole of it.
type spans struct {
	inline parser.InlineParser
	block  parser.BlockParser
}

// record notes seg as n's source in pc.
func record(pc parser.Context, n ast.Node, seg text.Segment) {
	m, _ := pc.Get(spansKey).(map[ast.Node]text.Segment)
	if m == nil {
		m = map[ast.Node]text.Segment{}
		pc.Set(spansKey, m)
	}
	m[n] = seg
}

// spanOf returns n's recorded source, if any.
func spanOf(pc parser.Context, n ast.Node) (text.Segment, bool) {
	m, _ := pc.Get(spansKey).(map[ast.Node]text.Segment)
	seg, ok := m[n]
	return seg, ok
}

func (s *spans) Trigger() []byte {
	if s.block != nil {
		return s.block.Trigger()
	}
	return s.inline.Trigger()
}

func (s *spans) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	_, from := block.Position()
	n := s.inline.Parse(parent, block, pc)
	switch n.(type) {
	case *ast.Link, *ast.Image, *mathInline:
		_, to := block.Position()
		record(pc, n, text.NewSegment(from.Start, to.Start))
	}
	return n
}

// CloseBlock lets the wrapped parser drop its open brackets at the end of
// a block, as goldmark asks of the link parser.
func (s *spans) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := s.inline.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

func (s *spans) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	_, seg := reader.PeekLine()
	n, st := s.block.Open(parent, reader, pc)
	if n != nil {
		record(pc, n, seg)
	}
	return n, st
}

func (s *spans) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	_, seg := reader.PeekLine()
	_, before := reader.Position()
	st := s.block.Continue(node, reader, pc)
	if _, after := reader.Position(); after.Start != before.Start {
		if span, ok := spanOf(pc, node); ok {
			record(pc, node, text.NewSegment(span.Start, seg.Stop))
		}
	}
	return st
}

func (s *spans) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	s.block.Close(node, reader, pc)
}

func (s *spans) CanInterruptParagraph() bool { return s.block.CanInterruptParagraph() }

func (s *spans) CanAcceptIndentedLine() bool { return s.block.CanAcceptIndentedLine() }

// edit replaces src[from:to] with repl.
type edit struct {
	from, to int
	repl     string
}

// defangOnce reads s with p and returns it with the rewrites one reading
// asks for, and whether there were any.
func defangOnce(r reading, s string, block bool) (string, bool) {
	src := []byte(s)
	pc := parser.NewContext()
	doc := r.p.Parse(text.NewReader(src), parser.WithContext(pc))
	var edits []edit
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock:
			return ast.WalkSkipChildren, nil
		case *mathInline, *mathBlock:
			if seg, ok := spanOf(pc, n); ok {
				edits = spaceLess(edits, src, seg.Start, seg.Stop)
			}
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if r.math {
				// Without math, text may be TeX that another reading
				// leaves alone: spaceLess has seen to its '<'.
				edits = escapeLess(edits, src, n.Segment.Start, n.Segment.Stop)
			}
		case *ast.RawHTML:
			edits = rawHTML(edits, src, n.Segments)
		case *ast.HTMLBlock:
			edits = htmlBlock(edits, src, n, block)
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			if !LinkAllowed(string(n.URL(src))) {
				if at := n.Pos(); at >= 0 && at < len(src) && src[at] == '<' {
					edits = append(edits, edit{at, at + 1, "&lt;"})
				} else if seg := autoLinkSegment(n); seg.Start > 0 && src[seg.Start-1] == '<' {
					edits = append(edits, edit{seg.Start - 1, seg.Start, "&lt;"})
				}
			}
		case *ast.Link:
			if end, ok := spanOf(pc, n); ok && !destAllowed(n.Destination) {
				edits = unlink(edits, n.Pos(), 1, end)
			}
		case *ast.Image:
			if end, ok := spanOf(pc, n); ok && !destAllowed(n.Destination) {
				edits = unlink(edits, n.Pos(), 2, end)
			}
		}
		return ast.WalkContinue, nil
	})
	if len(edits) == 0 {
		return s, false
	}
	return apply(s, edits), true
}

// destAllowed reports whether a link or an image may point at dest, a
// destination as goldmark parsed it, as the website judges it.
func destAllowed(dest []byte) bool { return linkAllowed(destKind(resolveDest(dest))) }

// spaceLess asks for a space after every '<' of TeX in src[from:to] that
// a reader without math could take for the start of a tag, a comment or
// an autolink ('<' before a letter, '/', '!' or '?'). TeX ignores spaces
// in math, so the formula is unchanged.
func spaceLess(edits []edit, src []byte, from, to int) []edit {
	if from < 0 || to > len(src) {
		return edits
	}
	for i := from; i+1 < to; i++ {
		if c := src[i+1]; src[i] == '<' && (c == '/' || c == '!' || c == '?' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			edits = append(edits, edit{i + 1, i + 1, " "})
		}
	}
	return edits
}

// autoLinkSegment returns the segment of an autolink's text.
func autoLinkSegment(n *ast.AutoLink) text.Segment {
	if t, ok := n.FirstChild().(*ast.Text); ok {
		return t.Segment
	}
	return text.Segment{}
}

// escapeLess asks for every '<' of src[from:to] to become "&lt;", with
// the backslash of "\<" (which Python-Markdown does not read as an
// escape) going too.
func escapeLess(edits []edit, src []byte, from, to int) []edit {
	if from < 0 || to > len(src) {
		return edits
	}
	for i := from; i < to; i++ {
		if src[i] != '<' {
			continue
		}
		if i > from && src[i-1] == '\\' {
			edits = append(edits, edit{i - 1, i + 1, "&lt;"})
		} else {
			edits = append(edits, edit{i, i + 1, "&lt;"})
		}
	}
	return edits
}

// rawHTML asks for inline HTML to show as text, or to go when it is a
// lone comment.
func rawHTML(edits []edit, src []byte, segs *text.Segments) []edit {
	var raw []byte
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		raw = append(raw, seg.Value(src)...)
	}
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		if isComment(raw) {
			edits = append(edits, edit{seg.Start, seg.Stop, ""})
		} else {
			edits = escapeLess(edits, src, seg.Start, seg.Stop)
		}
	}
	return edits
}

// htmlBlock asks for an HTML block to show as text: with fence, a fenced
// code block at the top level (where its lines can be replaced whole), its '<'
// escaped inside a container (where each line keeps its container's
// prefix), nothing when it is a lone comment.
func htmlBlock(edits []edit, src []byte, n *ast.HTMLBlock, fence bool) []edit {
	lines := n.Lines()
	segs := make([]text.Segment, 0, lines.Len()+1)
	for i := 0; i < lines.Len(); i++ {
		segs = append(segs, lines.At(i))
	}
	if n.HasClosure() {
		segs = append(segs, n.ClosureLine)
	}
	if len(segs) == 0 {
		return edits
	}
	var raw []byte
	for _, seg := range segs {
		raw = append(raw, seg.Value(src)...)
	}
	switch {
	case isComment(raw):
		for _, seg := range segs {
			edits = append(edits, edit{seg.Start, seg.Stop, ""})
		}
	case fence && n.Parent() != nil && n.Parent().Kind() == ast.KindDocument && contiguous(segs):
		from, to := segs[0].Start, segs[len(segs)-1].Stop
		body := strings.TrimRight(string(src[from:to]), "\n")
		repl := Fence(body, "html")
		if to > from && src[to-1] == '\n' {
			repl += "\n"
		}
		edits = append(edits, edit{from, to, repl})
	default:
		for _, seg := range segs {
			edits = escapeLess(edits, src, seg.Start, seg.Stop)
		}
	}
	return edits
}

// contiguous reports whether segs cover one run of source with nothing
// between them.
func contiguous(segs []text.Segment) bool {
	for i := 1; i < len(segs); i++ {
		if segs[i].Start != segs[i-1].Stop {
			return false
		}
	}
	return true
}

// unlink asks for a link or an image to become its text: the opening
// bracket (open bytes from at: "[" or "![") and the end from ']' to the
// end of the destination go.
func unlink(edits []edit, at, open int, end text.Segment) []edit {
	if at < 0 || end.Stop <= end.Start {
		return edits
	}
	return append(edits, edit{at, at + open, ""}, edit{end.Start, end.Stop, ""})
}

// apply makes the edits that do not overlap an earlier one; the next
// round of Defang sees to the rest.
func apply(s string, edits []edit) string {
	slices.SortStableFunc(edits, func(a, b edit) int { return a.from - b.from })
	var b strings.Builder
	b.Grow(len(s) + 16)
	done := 0
	for _, e := range edits {
		if e.from < done || e.to > len(s) || e.from > e.to {
			continue
		}
		b.WriteString(s[done:e.from])
		b.WriteString(e.repl)
		done = e.to
	}
	b.WriteString(s[done:])
	return b.String()
}
