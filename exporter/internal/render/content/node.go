package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"

	"github.com/curex/curex/exporter/internal/render/attrs"
)

// maxRawBytes is how much of a member that is not valid JSON is shown.
const maxRawBytes = 4096

// Node renders all attributes of a node with level-2 section headings; see
// NodeLevel.
func (r *Converter) Node(attributes map[string]json.RawMessage, nodeTitle string, words Words, idPrefix string) (template.HTML, error) {
	return r.NodeLevel(attributes, nodeTitle, words, idPrefix, 0)
}

// NodeLevel renders all attributes of a node, as package attrs reads
// them, in this order:
//
//   - "description", a Markdown string, first and without a heading, in a
//     <div class="description">;
//   - "learning_objectives" as <section class="objectives"><hN>label</hN>
//     <ul>…</ul></section>, each objective rendered as inline Markdown;
//   - every other member sorted by key, each as <section class="attr
//     attr-KEY"> with an <hN>label</hN>, KEY reduced to [a-z0-9-].
//
// Values: a string is Markdown; an array of strings a <ul>; an array of
// {term, definition}-like pairs a <dl class="terms">; an array of flat
// records (numbers, booleans, null or one-line strings; at most 8 keys in
// all) a <table class="records">, a column per key; an array of other objects a <ul class="records"> with a
// <dl class="fields"> per object; an object a <dl class="fields"> of its
// members, recursively, down to 8 levels and then compact JSON in <code
// class="json">, truncated; a number or boolean a <p class="value">. JSON
// null means no value: null members are omitted (null array elements are
// shown as null, to keep positions; null table cells are empty). A member
// that is not valid JSON is shown escaped in <pre class="value raw">.
// "title" is skipped when it equals nodeTitle, else rendered.
//
// headingLevel sets the level N of the section headings: 2 when 0, at most
// 6. Headings inside Markdown are moved down to fit under them. Heading and
// footnote ids start with idPrefix followed by the member's class name;
// each section heading has the id idPrefix, '-' and the class name
// ("c--materials"), unique on the page.
// words name the members and write the values that carry a unit: a
// number of minutes under a key that says so (attrs.Minutes) as a duration,
// a boolean as yes or no (nil: English).
func (r *Converter) NodeLevel(attributes map[string]json.RawMessage, nodeTitle string, words Words, idPrefix string, headingLevel int) (template.HTML, error) {
	if headingLevel <= 0 {
		headingLevel = 2
	}
	headingLevel = min(headingLevel, 6)
	w := &nodeWriter{
		r:      r,
		words:  wordsOr(words),
		prefix: sanitizeIDPrefix(idPrefix),
		level:  headingLevel,
		used:   map[string]bool{},
	}
	for _, s := range r.order.Parse(attributes, nodeTitle) {
		if err := w.section(s); err != nil {
			return "", err
		}
	}
	return template.HTML(w.buf.String()), nil
}

// nodeWriter holds the state of one Node call.
type nodeWriter struct {
	r      *Converter
	buf    bytes.Buffer
	words  Words
	prefix string
	level  int
	// used holds the id prefixes given out, so that no two Markdown calls
	// of one node share one.
	used map[string]bool
	seq  int
}

// idPrefix returns an unused id prefix starting with base.
func (w *nodeWriter) idPrefix(base string) string {
	p := base
	for w.used[p] {
		w.seq++
		p = strings.TrimSuffix(base, "-") + "-" + strconv.Itoa(w.seq) + "-"
	}
	w.used[p] = true
	return p
}

// sectionID returns an unused id for the heading of the section of class
// name cls: the prefix, a second '-' and cls ("c--materials"; "attr" for
// an empty cls), then "-2", "-3" for a later section of the same class
// name. Markdown heading ids are the prefix, a class name, '-' and a slug,
// none of which starts with '-', so the two never meet; a page's table of
// contents links to these ids.
func (w *nodeWriter) sectionID(cls string) string {
	if cls == "" {
		cls = "attr"
	}
	base := w.prefix + "-" + cls
	id := base
	for n := 2; w.used[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	w.used[id] = true
	return id
}

func (w *nodeWriter) section(s attrs.Section) error {
	cls := className(s.Key)
	base := w.prefix + cls + "-"
	if cls == "" {
		base = w.prefix + "attr-"
	}
	if s.Lead {
		w.buf.WriteString(`<div class="description">` + "\n")
		if err := w.r.markdown(&w.buf, s.Value.Text, w.idPrefix(base), w.level-1, false); err != nil {
			return err
		}
		w.buf.WriteString("</div>\n")
		return nil
	}

	section := "attr"
	if cls != "" {
		section += " attr-" + cls
	}
	if s.Key == attrs.KeyObjectives {
		section = "objectives"
	}
	h := strconv.Itoa(w.level)
	fmt.Fprintf(&w.buf, "<section class=\"%s\">\n<h%s id=\"%s\">%s</h%s>\n", section, h, w.sectionID(cls), escape(label(w.words, s.Key)), h)
	switch v := s.Value; v.Kind {
	case attrs.Invalid:
		w.raw(s.Raw)
	case attrs.Text:
		if w.kind(v) {
			return w.endSection()
		}
		if err := w.r.markdown(&w.buf, v.Text, w.idPrefix(base), w.level, false); err != nil {
			return err
		}
	case attrs.Number, attrs.Bool:
		w.buf.WriteString(`<p class="value">`)
		w.scalar(s.Key, v)
		w.buf.WriteString("</p>\n")
	default:
		if err := w.value(v, s.Key, base); err != nil {
			return err
		}
		w.buf.WriteByte('\n')
	}
	return w.endSection()
}

// endSection closes an attribute's section.
func (w *nodeWriter) endSection() error {
	w.buf.WriteString("</section>\n")
	return nil
}

// kind writes a Text value that says what it is as a paragraph of its
// own, and reports whether it did: a date (attrs.Date) in the page's
// language, a URL (attrs.Link) as a link, when the gate of links allows
// it.
func (w *nodeWriter) kind(v attrs.Value) bool {
	if s, ok := w.inlineKind(v); ok {
		w.buf.WriteString(`<p class="value">` + s + "</p>\n")
		return true
	}
	return false
}

// inlineKind returns the HTML of a Text value that says what it is: a
// date (attrs.Date) in the page's language, a URL (attrs.Link) as an
// external link, when LinkAllowed; false for any other value.
func (w *nodeWriter) inlineKind(v attrs.Value) (string, bool) {
	if d, ok := attrs.Date(v); ok {
		return `<time datetime="` + d.Format(time.DateOnly) + `">` + escape(w.words.Date(d)) + "</time>", true
	}
	if u, ok := attrs.Link(v); ok && LinkAllowed(u) {
		href := string(util.EscapeHTML(util.URLEscape([]byte(u), false)))
		return `<a href="` + href + `" rel="` + externalRel + `">` + escape(u) + "</a>", true
	}
	return "", false
}

// raw shows a member that is not valid JSON, escaped and truncated.
func (w *nodeWriter) raw(raw []byte) {
	s := string(raw)
	if len(s) > maxRawBytes {
		cut := maxRawBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	w.buf.WriteString(`<pre class="value raw"><code>`)
	w.buf.WriteString(escape(s))
	w.buf.WriteString("</code></pre>\n")
}

// scalar writes a Number or Bool, the value of the member key: minutes as
// a duration, a boolean as yes or no, in the page's language.
func (w *nodeWriter) scalar(key string, v attrs.Value) {
	switch v.Kind {
	case attrs.Number:
		if n, ok := attrs.Minutes(key, v); ok {
			w.buf.WriteString(escape(w.words.Duration(n)))
			return
		}
		if n, ok := attrs.Count(key, v); ok {
			w.buf.WriteString(escape(w.words.Number(n)))
			return
		}
		w.buf.WriteString(escape(v.Text))
	case attrs.Bool:
		w.buf.WriteString(escape(w.words.YesNo(v.Bool)))
	}
}

// code writes s, JSON, in <code class="json">.
func (w *nodeWriter) code(s string) {
	w.buf.WriteString(`<code class="json">`)
	w.buf.WriteString(escape(s))
	w.buf.WriteString(`</code>`)
}

// value writes v, the value of the member key (or an item of it), for a
// section, a list item, a definition or a cell.
func (w *nodeWriter) value(v attrs.Value, key, base string) error {
	switch v.Kind {
	case attrs.Null:
		w.code("null")
	case attrs.Text:
		if h, ok := w.inlineKind(v); ok {
			w.buf.WriteString(h)
			return nil
		}
		return w.text(v.Text, base)
	case attrs.Number, attrs.Bool:
		w.scalar(key, v)
	case attrs.JSON:
		w.code(v.Text)
	case attrs.Terms:
		return w.terms(v.Terms, base)
	case attrs.Table:
		return w.table(v, base)
	case attrs.Records:
		return w.list(`<ul class="records">`, v.Items, key, base)
	case attrs.List:
		if len(v.Items) == 0 {
			w.code("[]")
			return nil
		}
		return w.list("<ul>", v.Items, key, base)
	case attrs.Fields:
		return w.fields(v.Fields, base)
	}
	return nil
}

// list writes items as a list opened by open.
func (w *nodeWriter) list(open string, items []attrs.Value, key, base string) error {
	w.buf.WriteString(open)
	for _, e := range items {
		w.buf.WriteString("\n<li>")
		if err := w.value(e, key, base); err != nil {
			return err
		}
		w.buf.WriteString("</li>")
	}
	w.buf.WriteString("\n</ul>")
	return nil
}

func (w *nodeWriter) terms(terms []attrs.Term, base string) error {
	w.buf.WriteString(`<dl class="terms">`)
	for _, t := range terms {
		w.buf.WriteString("\n<dt>")
		if err := w.text(t.Term, base); err != nil {
			return err
		}
		w.buf.WriteString("</dt>\n<dd>")
		if err := w.text(t.Definition, base); err != nil {
			return err
		}
		w.buf.WriteString("</dd>")
	}
	w.buf.WriteString("\n</dl>")
	return nil
}

// table writes flat records as a table, a column per key; a null or
// missing value is an empty cell.
func (w *nodeWriter) table(v attrs.Value, base string) error {
	w.buf.WriteString("<table class=\"records\">\n<thead>\n<tr>")
	for _, k := range v.Columns {
		w.buf.WriteString("\n<th>")
		w.buf.WriteString(escape(label(w.words, k)))
		w.buf.WriteString("</th>")
	}
	w.buf.WriteString("\n</tr>\n</thead>\n<tbody>")
	for _, rec := range v.Items {
		w.buf.WriteString("\n<tr>")
		for _, k := range v.Columns {
			w.buf.WriteString("\n<td>")
			if x, ok := rec.Get(k); ok {
				if err := w.value(x, k, base); err != nil {
					return err
				}
			}
			w.buf.WriteString("</td>")
		}
		w.buf.WriteString("\n</tr>")
	}
	w.buf.WriteString("\n</tbody>\n</table>")
	return nil
}

func (w *nodeWriter) fields(fs []attrs.Field, base string) error {
	if len(fs) == 0 {
		w.code("{}")
		return nil
	}
	w.buf.WriteString(`<dl class="fields">`)
	for _, f := range fs {
		w.buf.WriteString("\n<dt>")
		w.buf.WriteString(escape(label(w.words, f.Key)))
		w.buf.WriteString("</dt>\n<dd>")
		if err := w.value(f.Value, f.Key, base); err != nil {
			return err
		}
		w.buf.WriteString("</dd>")
	}
	w.buf.WriteString("\n</dl>")
	return nil
}

// text writes a string inside a list item or definition: inline Markdown
// when it is one line, block Markdown when it has several.
func (w *nodeWriter) text(s, base string) error {
	if isPlain(s) {
		w.buf.WriteString(s)
		return nil
	}
	return w.r.markdown(&w.buf, s, w.idPrefix(base), w.level, !strings.Contains(s, "\n"))
}

// isPlain reports whether s renders as inline Markdown to itself: letters,
// digits, single inner spaces and punctuation that no Markdown, typographer
// or linkify rule touches nor HTML escaping changes. It spares goldmark the
// many short strings of lists such as standards codes.
func isPlain(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, "  ") || strings.Contains(s, "..") {
		return false
	}
	if strings.Contains(strings.ToLower(s), "www.") {
		return false
	}
	digits := true
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			continue // digits stay digits
		case unicode.IsLetter(r):
		case r == '.':
			if digits { // "1." starts an ordered list
				return false
			}
		case r == ' ' || r == ',' || r == ';' || r == '?' || r == '%' || r == '/':
			if i == 0 {
				return false
			}
		default:
			return false
		}
		digits = false
	}
	return true
}
