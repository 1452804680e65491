package content

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/curex/curex/exporter/internal/render/markup"
	"github.com/curex/curex/exporter/internal/render/mathml"
)

// Tally counts, across the render calls it is given to, what the reader
// should be told of: the expressions that could not be converted. It is
// safe for concurrent use; its zero value counts from zero.
type Tally struct {
	mathErrors atomic.Int64
}

// MathErrors returns how many expressions failed to convert.
func (t *Tally) MathErrors() int {
	if t == nil {
		return 0
	}
	return int(t.mathErrors.Load())
}

// Tallied returns a Converter that renders as r does and counts into t.
// It shares r's parser and converter, so it is cheap to make per tree.
func (r *Converter) Tallied(t *Tally) *Converter {
	c := *r
	c.tally = t
	return &c
}

// MathErrors returns how many expressions of a node's attributes fail to
// convert, as Node (with any words, prefix or heading level) shows them
// marked as errors, without writing the node: its Markdown is parsed, and
// only the expressions a page would show are converted (into r's
// converter's cache, so that the formats that render the node next find
// them there). Its error is the converter's alone (ctx done, an
// interpreter that failed to start); it is safe for concurrent use.
func (r *Converter) MathErrors(ctx context.Context, attributes map[string]json.RawMessage, nodeTitle string) (int, error) {
	var t Tally
	c := *r
	c.ctx, c.tally, c.countOnly = ctx, &t, true
	if _, err := c.Node(attributes, nodeTitle, nil, ""); err != nil {
		return 0, err
	}
	return t.MathErrors(), nil
}

// convertMath converts the expressions of doc as its rendering would
// (each a formula the page shows; none in an image's text, which is
// shown as plain text), counting the failures in doc's Tally.
func (r *Converter) convertMath(doc ast.Node, source []byte) error {
	s := &safeRenderer{r: r}
	return ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if n.Kind() == ast.KindImage {
			return ast.WalkSkipChildren, nil
		}
		tex, display, ok := mathOf(n, source)
		if !ok {
			return ast.WalkContinue, nil
		}
		if _, _, err := s.convert(n, tex, display); err != nil {
			return ast.WalkStop, err
		}
		return ast.WalkSkipChildren, nil
	})
}

// mathOf returns the expression node shows as math (inline or a display
// block, a "math" fenced block), and whether it is one: the one reading
// of that for the renderers and convertMath.
func mathOf(node ast.Node, source []byte) (tex string, display, ok bool) {
	switch n := node.(type) {
	case *mathInline:
		return n.tex, n.delim.Display(), true
	case *mathBlock:
		return strings.TrimSpace(string(n.tex)), true, true
	case *ast.FencedCodeBlock:
		if !mathml.FenceIsMath(string(n.Language(source))) {
			return "", false, false
		}
		return strings.TrimSpace(string(codeOf(n, source))), true, true
	}
	return "", false, false
}

// WithContext returns a Converter that renders as r does, its conversions
// of math under ctx: once ctx is done, a conversion under way stops and
// the call fails with ctx's error (the run's, not the expression's, so
// nothing is counted). It shares r's parser and converter, so it is cheap
// to make per call or per tree; without it, conversions run to their
// bounded end.
func (r *Converter) WithContext(ctx context.Context) *Converter {
	c := *r
	c.ctx = ctx
	return &c
}

// MayHaveMath reports whether Markdown text s may hold math as the
// renderers read it: a delimiter ($, \(, \[), or a fence whose language
// reads as math (mathml.FenceIsMath: "```Math", "~~~~ {math}"). It is a cheap test
// to skip text with none; it never says no to text with math
// (FuzzMath).
func MayHaveMath(s string) bool {
	return strings.Contains(s, "$") || strings.Contains(s, `\(`) || strings.Contains(s, `\[`) || hasMathFence(s)
}

// hasMathFence reports whether a run of three backticks or tildes in s is
// followed, on its line, by an info string mathml.FenceIsMath reads as
// math (more fence characters and spaces before it skipped): a superset
// of the fenced blocks goldmark opens with that language.
func hasMathFence(s string) bool {
	for _, fence := range []string{"```", "~~~"} {
		for rest := s; ; {
			i := strings.Index(rest, fence)
			if i < 0 {
				break
			}
			rest = rest[i+len(fence):]
			line := rest
			if end := strings.IndexAny(line, "\n\r"); end >= 0 {
				line = line[:end]
			}
			if mathml.FenceIsMath(strings.TrimLeft(line, "`~ \t")) {
				return true
			}
		}
	}
	return false
}

// AttributesMayHaveMath reports whether a node's attributes (members as
// received) may hold math (MayHaveMath of any string in them): a cheap
// test on the JSON text, which decodes a member only when it holds a
// fence and no delimiter. A member with a \u escape may hold anything,
// so it may hold math.
func AttributesMayHaveMath(attributes map[string]json.RawMessage) bool {
	for _, raw := range attributes {
		if rawMayHaveMath(raw) {
			return true
		}
	}
	return false
}

// rawMayHaveMath is AttributesMayHaveMath of one member.
func rawMayHaveMath(raw json.RawMessage) bool {
	switch {
	case mayHold(raw, "$", `\(`, `\[`):
		return true // in JSON text \( is \\(, which holds \(
	case !mayHold(raw, "```", "~~~"):
		return false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return true
	}
	return anyString(v, MayHaveMath)
}

// mayHold reports whether a member's JSON text holds one of marks, or a
// \u escape, which may spell one: the cheap test made of a member before
// it is decoded (AttributesMayHaveMath, ImageURLs).
func mayHold(raw json.RawMessage, marks ...string) bool {
	if bytes.Contains(raw, []byte(`\u`)) {
		return true
	}
	for _, m := range marks {
		if bytes.Contains(raw, []byte(m)) {
			return true
		}
	}
	return false
}

// anyString reports whether f holds for a string in the decoded JSON v.
func anyString(v any, f func(string) bool) bool {
	switch v := v.(type) {
	case string:
		return f(v)
	case []any:
		for _, x := range v {
			if anyString(x, f) {
				return true
			}
		}
	case map[string]any:
		for k, x := range v {
			if f(k) || anyString(x, f) {
				return true
			}
		}
	}
	return false
}

// docTallyAttr is the Document attribute through which the math renderer
// learns the Tally of the call.
var docTallyAttr = []byte("curex-tally")

// docContextAttr is the Document attribute through which the math
// renderer learns the context of the call.
var docContextAttr = []byte("curex-context")

// Kinds of the math nodes.
var (
	kindMathInline = ast.NewNodeKind("MathInline")
	kindMathBlock  = ast.NewNodeKind("MathBlock")
)

// mathInline is an expression in a paragraph.
type mathInline struct {
	ast.BaseInline
	tex   string
	delim mathml.Delim
}

func (n *mathInline) Kind() ast.NodeKind { return kindMathInline }

func (n *mathInline) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"TeX": n.tex}, nil)
}

// mathBlock is a display expression that is a block of its own.
type mathBlock struct {
	ast.BaseBlock
	tex    []byte
	closer string
	closed bool
}

func (n *mathBlock) Kind() ast.NodeKind { return kindMathBlock }

func (n *mathBlock) IsRaw() bool { return true }

func (n *mathBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"TeX": string(n.tex)}, nil)
}

// mathInlineParser reads $...$, $$...$$, \(...\) and \[...\] in
// paragraphs, by mathml.Inline's rules. It runs before goldmark's own
// handling of a backslash (which would make "\(" a "("), and never sees
// a delimiter that is itself escaped, nor code spans.
type mathInlineParser struct{}

func (mathInlineParser) Trigger() []byte { return []byte{'$', '\\'} }

func (mathInlineParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	tex, n, d := lineAt(line, seg, pc)
	if n == 0 {
		if bytes.HasPrefix(line, []byte("$$")) {
			// An unclosed "$$" is text, both dollars: the second must not
			// open inline math.
			block.Advance(2)
			return ast.NewTextSegment(seg.WithStop(seg.Start + 2))
		}
		return nil
	}
	block.Advance(n)
	return &mathInline{tex: tex, delim: d}
}

// lineKey holds the mathml.Line of the line being parsed, so that a line
// of many delimiters is read in linear time.
var lineKey = parser.NewContextKey()

type cachedLine struct {
	base, stop int // the line's source positions
	line       *mathml.Line
}

// lineAt reads an expression at the start of line, the rest of the line
// at seg.
func lineAt(line []byte, seg text.Segment, pc parser.Context) (string, int, mathml.Delim) {
	if seg.Padding != 0 {
		return mathml.Inline(string(line))
	}
	c, _ := pc.Get(lineKey).(*cachedLine)
	if c == nil || c.stop != seg.Stop || seg.Start < c.base {
		c = &cachedLine{base: seg.Start, stop: seg.Stop, line: mathml.NewLine(string(line))}
		pc.Set(lineKey, c)
	}
	return c.line.At(seg.Start - c.base)
}

// mathBlockParser reads display blocks: "$$" or "\[" alone on a line up
// to a line that ends with "$$" or "\]", or a whole block on one line.
type mathBlockParser struct{}

func (mathBlockParser) Trigger() []byte { return []byte{'$', '\\'} }

func (mathBlockParser) Open(_ ast.Node, reader text.Reader, _ parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	op, tex, one, ok := mathml.BlockOpen(string(util.TrimRightSpace(line)))
	if !ok || !one && !mathml.BlockEnds(string(reader.Source()[min(seg.Stop, len(reader.Source())):]), mathml.BlockCloser(op)) {
		// Not a block, or one that never closes: text (mathml.BlockEnds).
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	n := &mathBlock{closer: mathml.BlockCloser(op)}
	if one {
		n.tex, n.closed = []byte(tex), true
		return n, parser.Close
	}
	return n, parser.NoChildren
}

func (mathBlockParser) Continue(node ast.Node, reader text.Reader, _ parser.Context) parser.State {
	n := node.(*mathBlock)
	if n.closed {
		// A block on one line ended on its opening line: goldmark keeps
		// a block open whatever Open returns, and without this it would
		// take the lines that follow as its TeX.
		return parser.Close
	}
	line, _ := reader.PeekLine()
	if line == nil {
		return parser.Close
	}
	if tex, ok := mathml.BlockClose(string(util.TrimRightSpace(line)), n.closer); ok {
		n.tex = append(n.tex, tex...)
		n.closed = true
		reader.AdvanceToEOL()
		return parser.Close
	}
	n.tex = append(n.tex, line...)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (mathBlockParser) Close(ast.Node, text.Reader, parser.Context) {}

func (mathBlockParser) CanInterruptParagraph() bool { return true }

func (mathBlockParser) CanAcceptIndentedLine() bool { return false }

// mathError is the text of the marker shown before an expression that
// failed to convert.
const mathErrorMark = "⚠"

// renderMathInline writes an inline expression's MathML, or its source
// marked as an error.
func (s *safeRenderer) renderMathInline(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*mathInline)
	tex, display, _ := mathOf(node, nil)
	out, failure, err := s.convert(node, tex, display)
	if err != nil {
		return ast.WalkStop, err
	}
	if failure != "" {
		open, closeDelim := delimiters(n.delim)
		mathError(w, failure, open+n.tex+closeDelim, false)
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(out)
	return ast.WalkSkipChildren, nil
}

// renderMathBlock writes a display block's MathML in a <div
// class="math-display" tabindex="0"> (which scrolls sideways when the
// equation is wider than the page, and so must take the keyboard focus to
// be scrolled without a pointer), or its source marked as an error.
func (s *safeRenderer) renderMathBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*mathBlock)
	return s.displayMath(w, node, source, "$$\n"+string(bytes.Trim(n.tex, "\n"))+"\n$$")
}

// displayMath writes the display math of node (mathOf), shown as shown
// (its source) when it fails.
func (s *safeRenderer) displayMath(w util.BufWriter, node ast.Node, source []byte, shown string) (ast.WalkStatus, error) {
	tex, _, _ := mathOf(node, source)
	out, failure, err := s.convert(node, tex, true)
	if err != nil {
		return ast.WalkStop, err
	}
	if failure != "" {
		mathError(w, failure, shown, true)
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<div class="math-display" tabindex="0">`)
	_, _ = w.WriteString(out)
	_, _ = w.WriteString("</div>\n")
	return ast.WalkSkipChildren, nil
}

// convert returns the MathML of tex, or failure, the converter's message,
// when the expression is the author's to fix (counted in the call's
// Tally; the page shows it). err is set only when the converter itself
// fails.
func (s *safeRenderer) convert(node ast.Node, tex string, display bool) (out, failure string, err error) {
	out, err = s.r.math.Convert(contextOf(node), markup.Text(tex), display)
	switch {
	case err == nil:
		return out, "", nil
	case mathml.IsExpressionError(err):
		if t := tallyOf(node); t != nil {
			t.mathErrors.Add(1)
		}
		return "", err.Error(), nil
	default:
		return "", "", err
	}
}

// mathError writes an expression's source, escaped, after a visible
// marker, with the converter's message as its title.
func mathError(w util.BufWriter, failure, source string, block bool) {
	msg := escape(failure)
	if block {
		_, _ = w.WriteString(`<pre class="math-error" title="` + msg + `"><code><span class="math-error-mark">` + mathErrorMark + ` TeX</span> `)
		_, _ = w.WriteString(escape(source))
		_, _ = w.WriteString("</code></pre>\n")
		return
	}
	_, _ = w.WriteString(`<code class="math-error" title="` + msg + `"><span class="math-error-mark">` + mathErrorMark + ` TeX</span> `)
	_, _ = w.WriteString(escape(source))
	_, _ = w.WriteString("</code>")
}

// tallyOf returns the Tally of the render call node belongs to.
func tallyOf(node ast.Node) *Tally {
	doc := node.OwnerDocument()
	if doc == nil {
		return nil
	}
	if v, ok := doc.Attribute(docTallyAttr); ok {
		t, _ := v.(*Tally)
		return t
	}
	return nil
}

// contextOf returns the context of the render call node belongs to
// (see WithContext), or context.Background().
func contextOf(node ast.Node) context.Context {
	if doc := node.OwnerDocument(); doc != nil {
		if v, ok := doc.Attribute(docContextAttr); ok {
			if ctx, ok := v.(context.Context); ok {
				return ctx
			}
		}
	}
	return context.Background()
}

// delimiters returns how d opens and closes an expression.
func delimiters(d mathml.Delim) (string, string) {
	switch d {
	case mathml.DoubleDollar:
		return "$$", "$$"
	case mathml.Paren:
		return `\(`, `\)`
	case mathml.Bracket:
		return `\[`, `\]`
	}
	return "$", "$"
}
