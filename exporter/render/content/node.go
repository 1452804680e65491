package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on what Node shows of unusual values.
const (
	// maxDepth is how deep arrays and objects nest as lists and definition
	// lists; deeper values are shown as compact JSON.
	maxDepth = 8
	// maxCompactRunes is how much compact JSON is shown past maxDepth.
	maxCompactRunes = 200
	// maxRawBytes is how much of a member that is not valid JSON is shown.
	maxRawBytes = 4096
)

// Attribute members with a place of their own.
const (
	keyDescription = "description"
	keyObjectives  = "learning_objectives"
	keyTitle       = "title"
)

// Node renders all attributes of a node with level-2 section headings; see
// NodeLevel.
func (r *Renderer) Node(attrs map[string]json.RawMessage, nodeTitle string, labels Labels, idPrefix string) (template.HTML, error) {
	return r.NodeLevel(attrs, nodeTitle, labels, idPrefix, 0)
}

// NodeLevel renders all attributes of a node, in this order:
//
//   - "description", a Markdown string, first and without a heading, in a
//     <div class="description">;
//   - "learning_objectives" as <section class="objectives"><hN>label</hN>
//     <ul>…</ul></section>, each objective rendered as inline Markdown;
//   - every other member sorted by key, each as <section class="attr
//     attr-KEY"> with an <hN>label</hN>, KEY reduced to [a-z0-9-].
//
// Values: a string is Markdown; an array of strings a <ul>; an array of
// {term, definition}-like pairs a <dl class="terms">; an array of other
// objects a <ul class="records"> with a <dl class="fields"> per object; an
// object a <dl class="fields"> of its members, recursively, down to 8
// levels and then compact JSON in <code class="json">, truncated; a number
// or boolean a <p class="value">. JSON null means no value: null members
// are omitted (null array elements are shown as null, to keep positions).
// A member that is not valid JSON is shown escaped in <pre class="value
// raw">. "title" is skipped when it equals nodeTitle, else rendered.
//
// headingLevel sets the level N of the section headings: 2 when 0, at most
// 6. Headings inside Markdown are moved down to fit under them. Heading and
// footnote ids start with idPrefix followed by the member's class name.
// labels names the members (nil: DefaultLabel).
func (r *Renderer) NodeLevel(attrs map[string]json.RawMessage, nodeTitle string, labels Labels, idPrefix string, headingLevel int) (template.HTML, error) {
	if headingLevel <= 0 {
		headingLevel = 2
	}
	headingLevel = min(headingLevel, 6)
	w := &nodeWriter{
		r:      r,
		labels: labels,
		prefix: sanitizeIDPrefix(idPrefix),
		level:  headingLevel,
		used:   map[string]bool{},
	}
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmpKey)
	for _, k := range keys {
		if err := w.member(k, attrs[k], nodeTitle); err != nil {
			return "", err
		}
	}
	return template.HTML(w.buf.String()), nil
}

func rank(key string) int {
	switch key {
	case keyDescription:
		return 0
	case keyObjectives:
		return 1
	}
	return 2
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpKey orders description first, learning_objectives second, then the
// other keys by byte order.
func cmpKey(a, b string) int {
	if c := cmpInt(rank(a), rank(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// nodeWriter holds the state of one Node call.
type nodeWriter struct {
	r      *Renderer
	buf    bytes.Buffer
	labels Labels
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

// errInvalid marks a member that is not one valid JSON value.
var errInvalid = errors.New("invalid JSON")

// decode parses one member. null is reported by isNull.
func decode(raw []byte) (v any, isNull bool, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false, errInvalid
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false, errInvalid
	}
	return v, v == nil, nil
}

func (w *nodeWriter) member(key string, raw json.RawMessage, nodeTitle string) error {
	v, isNull, err := decode(raw)
	if isNull {
		return nil
	}
	if key == keyTitle {
		if s, ok := v.(string); ok && strings.TrimSpace(s) == strings.TrimSpace(nodeTitle) {
			return nil
		}
	}
	cls := className(key)
	base := w.prefix + cls + "-"
	if cls == "" {
		base = w.prefix + "attr-"
	}
	if s, ok := v.(string); ok && key == keyDescription && err == nil {
		w.buf.WriteString(`<div class="description">` + "\n")
		if err := w.r.markdown(&w.buf, s, w.idPrefix(base), w.level-1, false); err != nil {
			return err
		}
		w.buf.WriteString("</div>\n")
		return nil
	}

	section := "attr"
	if cls != "" {
		section += " attr-" + cls
	}
	if key == keyObjectives {
		section = "objectives"
	}
	h := strconv.Itoa(w.level)
	fmt.Fprintf(&w.buf, "<section class=\"%s\">\n<h%s>%s</h%s>\n", section, h, escape(w.labels.label(key)), h)
	switch v := v.(type) {
	case nil:
		w.raw(raw)
	case string:
		if err := w.r.markdown(&w.buf, v, w.idPrefix(base), w.level, false); err != nil {
			return err
		}
	case json.Number, bool:
		w.buf.WriteString(`<p class="value">`)
		w.scalar(v)
		w.buf.WriteString("</p>\n")
	default:
		if err := w.value(v, 1, base); err != nil {
			return err
		}
		w.buf.WriteByte('\n')
	}
	w.buf.WriteString("</section>\n")
	return nil
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

func (w *nodeWriter) scalar(v any) {
	switch v := v.(type) {
	case json.Number:
		w.buf.WriteString(escape(v.String()))
	case bool:
		w.buf.WriteString(strconv.FormatBool(v))
	}
}

// compact shows v as compact JSON in <code>, truncated.
func (w *nodeWriter) compact(v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	s := "…"
	if err := enc.Encode(v); err == nil {
		s = strings.TrimSuffix(b.String(), "\n")
		if utf8.RuneCountInString(s) > maxCompactRunes {
			n := 0
			for i := range s {
				if n == maxCompactRunes {
					s = s[:i] + "…"
					break
				}
				n++
			}
		}
	}
	w.buf.WriteString(`<code class="json">`)
	w.buf.WriteString(escape(s))
	w.buf.WriteString(`</code>`)
}

// value writes v for a list item or definition; depth counts the arrays
// and objects around it.
func (w *nodeWriter) value(v any, depth int, base string) error {
	if depth > maxDepth {
		w.compact(v)
		return nil
	}
	switch v := v.(type) {
	case nil:
		w.buf.WriteString(`<code class="json">null</code>`)
	case string:
		return w.text(v, base)
	case json.Number, bool:
		w.scalar(v)
	case []any:
		return w.array(v, depth, base)
	case map[string]any:
		return w.object(v, depth, base)
	default:
		w.compact(v)
	}
	return nil
}

// Keys that make a two-member object a term and its definition.
var (
	termKeys       = []string{"term", "word", "name", "title", "label", "concept", "key"}
	definitionKeys = []string{"definition", "meaning", "description", "value", "explanation", "text"}
)

// termPair returns the term and definition of a {term, definition}-like
// object: exactly two string members, one named like a term and one like a
// definition.
func termPair(v any) (term, def string, ok bool) {
	m, isMap := v.(map[string]any)
	if !isMap || len(m) != 2 {
		return "", "", false
	}
	var haveTerm, haveDef bool
	for k, x := range m {
		s, isStr := x.(string)
		if !isStr {
			return "", "", false
		}
		switch {
		case slices.Contains(termKeys, k) && !haveTerm:
			term, haveTerm = s, true
		case slices.Contains(definitionKeys, k) && !haveDef:
			def, haveDef = s, true
		}
	}
	return term, def, haveTerm && haveDef
}

func (w *nodeWriter) array(a []any, depth int, base string) error {
	if len(a) == 0 {
		w.buf.WriteString(`<code class="json">[]</code>`)
		return nil
	}
	terms, records := true, true
	for _, e := range a {
		if _, _, ok := termPair(e); !ok {
			terms = false
		}
		if m, ok := e.(map[string]any); !ok || len(m) == 0 {
			records = false
		}
	}
	switch {
	case terms:
		w.buf.WriteString(`<dl class="terms">`)
		for _, e := range a {
			term, def, _ := termPair(e)
			w.buf.WriteString("\n<dt>")
			if err := w.text(term, base); err != nil {
				return err
			}
			w.buf.WriteString("</dt>\n<dd>")
			if err := w.text(def, base); err != nil {
				return err
			}
			w.buf.WriteString("</dd>")
		}
		w.buf.WriteString("\n</dl>")
	case records:
		w.buf.WriteString(`<ul class="records">`)
		for _, e := range a {
			w.buf.WriteString("\n<li>")
			if err := w.value(e, depth+1, base); err != nil {
				return err
			}
			w.buf.WriteString("</li>")
		}
		w.buf.WriteString("\n</ul>")
	default:
		w.buf.WriteString("<ul>")
		for _, e := range a {
			w.buf.WriteString("\n<li>")
			if err := w.value(e, depth+1, base); err != nil {
				return err
			}
			w.buf.WriteString("</li>")
		}
		w.buf.WriteString("\n</ul>")
	}
	return nil
}

func (w *nodeWriter) object(m map[string]any, depth int, base string) error {
	keys := make([]string, 0, len(m))
	for k, x := range m {
		if x != nil {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		w.buf.WriteString(`<code class="json">{}</code>`)
		return nil
	}
	slices.Sort(keys)
	w.buf.WriteString(`<dl class="fields">`)
	for _, k := range keys {
		w.buf.WriteString("\n<dt>")
		w.buf.WriteString(escape(w.labels.label(k)))
		w.buf.WriteString("</dt>\n<dd>")
		if err := w.value(m[k], depth+1, base); err != nil {
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
