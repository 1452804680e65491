package content

import (
	"github.com/curex/curex/exporter/internal/render/attrs"

	"bytes"
	"context"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"unicode"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/curex/curex/exporter/internal/diskcache"
	"github.com/curex/curex/exporter/internal/render/markup"
	"github.com/curex/curex/exporter/internal/render/mathml"
)

// Converter renders node attributes to HTML. Its zero value is not usable;
// create one with New. A Converter is safe for concurrent use.
type Converter struct {
	md     goldmark.Markdown
	chroma *chromahtml.Formatter
	hl     *highlighter
	// images, when set, shows images through a resolver (WithImages).
	images *pageImages
	math   *mathml.Converter
	// tally, when set, counts what the calls met (see Tallied).
	tally *Tally
	// countOnly, set by MathErrors, makes markdown convert the math of
	// its documents, not render them.
	countOnly bool
	// ctx, when set, is the run's: it stops a conversion of math under
	// way (see WithContext).
	ctx context.Context
	// order is the publisher's order of attribute members (WithOrder).
	order attrs.Order
	// code, when set, keeps highlighted code (WithCodeCache); codeSum is
	// highlightSum's, for its keys.
	code    diskcache.Cache
	codeSum string
}

// WithOrder makes the Converter show a node's attribute members in the
// publisher's order (attribute_order; see attrs.Order) instead of the
// package attrs's own.
func WithOrder(o attrs.Order) Option {
	return func(r *Converter) { r.order = o }
}

// Option configures a Converter.
type Option func(*Converter)

// WithMath makes the Converter convert TeX with c, which it may share with
// other Renderers (and so its cache); by default each Converter has a
// converter of its own.
func WithMath(c *mathml.Converter) Option {
	return func(r *Converter) {
		if c != nil {
			r.math = c
		}
	}
}

// Reuse returns c, the converter the formats of a run share
// (render.Options.Content), or when c is nil a new one with opts.
func Reuse(c *Converter, opts ...Option) *Converter {
	if c != nil {
		return c
	}
	return New(opts...)
}

// New returns a Converter configured for curex: GFM, footnotes, typographer,
// CJK line breaks, chroma highlighting with classes, TeX math converted to
// MathML, no raw HTML and a link-scheme allowlist.
func New(opts ...Option) *Converter {
	r := &Converter{
		hl: newHighlighter(),
		chroma: chromahtml.New(
			chromahtml.WithClasses(true),
			chromahtml.WithPreWrapper(nopPreWrapper{}),
		),
	}
	for _, o := range opts {
		o(r)
	}
	if r.math == nil {
		r.math = mathml.New(mathml.Options{})
	}
	r.md = goldmark.New(
		goldmark.WithExtensions(
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough,
			extension.Linkify,
			extension.TaskList,
			extension.NewFootnote(extension.WithFootnoteIDPrefixFunction(footnotePrefix)),
			extension.Typographer,
			extension.NewCJK(extension.WithEastAsianLineBreaks()),
		),
		goldmark.WithParserOptions(
			// Math first: before goldmark reads "\(" as an escaped "(",
			// and before any block that "$$" or "\[" could start.
			parser.WithBlockParsers(util.Prioritized(mathBlockParser{}, 50)),
			parser.WithInlineParsers(util.Prioritized(mathInlineParser{}, 50)),
			parser.WithAutoHeadingID(),
			parser.WithASTTransformers(util.Prioritized(headingShifter{}, 1000)),
		),
		goldmark.WithRendererOptions(
			// No html.WithUnsafe: and our own node renderers below replace
			// every goldmark renderer that could emit author-controlled
			// markup or URLs.
			renderer.WithNodeRenderers(util.Prioritized(&safeRenderer{r: r}, 10)),
		),
	)
	return r
}

// Markdown renders one Markdown string. idPrefix makes footnote and heading
// ids unique on the page (e.g. "n3-description-"); characters other than
// ASCII letters, digits, '-' and '_' in it are replaced by '-'.
func (r *Converter) Markdown(src, idPrefix string) (template.HTML, error) {
	var buf bytes.Buffer
	if err := r.markdown(&buf, src, idPrefix, 0, false); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}

// Context keys carrying per-call settings to the AST transformer.
var (
	shiftKey  = parser.NewContextKey()
	prefixKey = parser.NewContextKey()
)

// docPrefixAttr is the Document attribute through which the footnote
// renderer learns the id prefix of the call.
var docPrefixAttr = []byte("curex-id-prefix")

// markdown renders src into buf. shift moves every heading down by that many
// levels (capped at h6). inline renders a single paragraph without its <p>.
func (r *Converter) markdown(buf *bytes.Buffer, src, idPrefix string, shift int, inline bool) (err error) {
	src = markup.Text(src)
	start := buf.Len()
	defer func() {
		// goldmark is not ours: should it panic on some input, show the
		// input as escaped text rather than fail the whole export.
		if v := recover(); v != nil {
			onPanic(v)
			buf.Truncate(start)
			buf.WriteString(`<pre class="markdown-error"><code>`)
			buf.WriteString(escape(src))
			buf.WriteString("</code></pre>\n")
			err = nil
		}
	}()
	prefix := sanitizeIDPrefix(idPrefix)
	defused := defuse(src)
	if r.countOnly && !MayHaveMath(defused) {
		return nil // no math to convert: nothing to parse
	}
	source := []byte(defused)
	pc := parser.NewContext(parser.WithIDs(&prefixIDs{prefix: prefix}))
	pc.Set(shiftKey, shift)
	pc.Set(prefixKey, prefix)
	doc := r.md.Parser().Parse(text.NewReader(source), parser.WithContext(pc))
	if r.tally != nil {
		doc.SetAttribute(docTallyAttr, r.tally)
	}
	if r.ctx != nil {
		doc.SetAttribute(docContextAttr, r.ctx)
	}
	if inline {
		inlineParagraph(doc)
	}
	if r.countOnly {
		return r.convertMath(doc, source)
	}
	if r.images != nil {
		doc.SetAttribute(imagesAttr, r.images)
	}
	if err := r.md.Renderer().Render(bufferWriter{buf}, source, doc); err != nil {
		return fmt.Errorf("render markdown: %w", err)
	}
	return nil
}

// bufferWriter is a bytes.Buffer as goldmark's renderer writes: a
// util.BufWriter, written straight into the buffer. Given any other
// writer, Render wraps it in a bufio.Writer of its own (4 KiB a call,
// every byte copied twice): 17.7 MB of the 620 MB a build of the
// 5,000-page bench tree allocated.
type bufferWriter struct{ *bytes.Buffer }

var _ util.BufWriter = bufferWriter{}

// Buffered is 0: nothing waits to be written.
func (bufferWriter) Buffered() int { return 0 }

// Flush has nothing to write.
func (bufferWriter) Flush() error { return nil }

// onPanic is told of a recovered goldmark panic; fuzz tests make it fatal.
var onPanic = func(any) {}

// inlineParagraph turns a document that is one paragraph into a text block,
// which renders without the surrounding <p>.
func inlineParagraph(doc ast.Node) {
	p, ok := doc.FirstChild().(*ast.Paragraph)
	if !ok || doc.ChildCount() != 1 {
		return
	}
	tb := ast.NewTextBlock()
	tb.SetLines(p.Lines())
	for c := p.FirstChild(); c != nil; {
		next := c.NextSibling()
		tb.AppendChild(tb, c)
		c = next
	}
	doc.ReplaceChild(doc, p, tb)
}

// headingShifter moves headings down and records the id prefix on the
// document for the footnote renderer.
type headingShifter struct{}

func (headingShifter) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	if p, ok := pc.Get(prefixKey).(string); ok {
		doc.SetAttribute(docPrefixAttr, []byte(p))
	}
	shift, _ := pc.Get(shiftKey).(int)
	if shift <= 0 {
		return
	}
	// The block's shallowest heading goes right under the page's heading
	// at level shift (a block that starts at "##" must not skip a level),
	// and the others keep their distance from it.
	var headings []*ast.Heading
	top := 6
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if h, ok := n.(*ast.Heading); ok {
			headings = append(headings, h)
			top = min(top, h.Level)
			return ast.WalkSkipChildren, nil
		}
		if n.Type() == ast.TypeInline {
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, h := range headings {
		h.Level = min(6, h.Level-top+1+shift)
	}
}

// footnotePrefix returns the id prefix recorded on n's document.
func footnotePrefix(n ast.Node) []byte {
	doc := n.OwnerDocument()
	if doc == nil {
		return nil
	}
	if v, ok := doc.Attribute(docPrefixAttr); ok {
		if b, ok := v.([]byte); ok {
			return b
		}
	}
	return nil
}

// sanitizeIDPrefix keeps ASCII letters, digits, '-' and '_' and replaces
// anything else by '-'.
func sanitizeIDPrefix(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		if !idByte(s[i]) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	b := []byte(s)
	for i := range b {
		if !idByte(b[i]) {
			b[i] = '-'
		}
	}
	return string(b)
}

func idByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// prefixIDs generates heading ids that start with a prefix and are unique
// within one Markdown call. Unicode letters and digits are kept, so Arabic
// and Japanese headings get readable ids.
type prefixIDs struct {
	prefix string
	used   map[string]bool
	// next is the next suffix to try for a slug, so that many equal
	// headings cost linear, not quadratic, time.
	next map[string]int
}

const maxSlugRunes = 64

func (s *prefixIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	var b strings.Builder
	dash := false
	n := 0
	for _, r := range string(value) {
		if n >= maxSlugRunes {
			break
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
			n++
		default:
			dash = true
		}
	}
	slug := b.String()
	if slug == "" {
		slug = "heading"
	}
	if s.used == nil {
		s.used = map[string]bool{}
		s.next = map[string]int{}
	}
	id := s.prefix + slug
	for s.used[id] {
		s.next[slug]++
		id = s.prefix + slug + "-" + strconv.Itoa(s.next[slug])
	}
	s.used[id] = true
	return []byte(id)
}

func (s *prefixIDs) Put(value []byte) {
	if s.used == nil {
		s.used = map[string]bool{}
		s.next = map[string]int{}
	}
	s.used[string(value)] = true
}

// nopPreWrapper lets the code block renderer write <pre><code> itself.
type nopPreWrapper struct{}

func (nopPreWrapper) Start(bool, string) string { return "" }
func (nopPreWrapper) End(bool) string           { return "" }

// escape returns s escaped for HTML text and attribute values, with
// invalid UTF-8 replaced.
func escape(s string) string {
	return template.HTMLEscapeString(markup.Text(s))
}
