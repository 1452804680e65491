package markdown

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/curex/curex/exporter/render/content"
)

// Attribute keys with a place of their own.
const (
	keyDescription = "description"
	keyObjectives  = "learning_objectives"
	keyTitle       = "title"
)

// maxValueDepth is how deep objects and arrays nest as Markdown lists;
// deeper values are shown as JSON.
const maxValueDepth = 4

// maxTableColumns is the widest array of records shown as a table.
const maxTableColumns = 8

// page returns the file of page i.
func (b *bundle) page(i int) []byte {
	p := &b.pages[i]
	n := p.n
	var buf bytes.Buffer
	size := 1024
	for _, v := range n.Attributes {
		size += len(v) + 64
	}
	buf.Grow(size)

	fm := frontMatter{buf: &buf}
	fm.begin()
	fm.str("title", n.Title)
	fm.int("weight", p.weight)
	fm.str("id", n.ID)
	fm.str("node_type", n.NodeType.Name)
	fm.str("node_type_display", n.NodeType.DisplayName)
	fm.str("node_type_icon", n.NodeType.Icon)
	fm.str("ordinal_label", n.OrdinalLabel)
	fm.str("type_display", n.TypeDisplay)
	fm.int("position", n.Position)
	fm.int("depth", n.Depth)
	fm.str("workflow_status", n.WorkflowStatus)
	fm.bool("draft", !n.Published())
	fm.mapping("inheritance", func() {
		fm.bool("inherited", n.Inheritance.IsInherited)
		fm.str("source_curriculum", n.Inheritance.SourceCurriculum)
		fm.int("override_level", n.Inheritance.OverrideLevel)
	})
	fm.mapping("translation", func() {
		fm.bool("translated", n.Translation.IsTranslated)
		fm.str("status", n.Translation.Status)
		fm.str("source_locale", n.Translation.SourceLocale)
	})
	parent := ""
	if p.parent >= 0 {
		parent = b.pages[p.parent].n.ID
	}
	fm.str("parent", parent)
	fm.str("locale", b.t.Locale)
	fm.str("variant", b.t.Variant)
	fm.str("curriculum", b.t.CurriculumName)
	fm.str("curriculum_id", b.t.CurriculumID)
	fm.list("variant_chain", b.t.VariantChain)
	if b.o.Hugo {
		fm.str("translationKey", n.ID)
	}
	fm.end()

	if !b.o.Hugo {
		buf.WriteString("# ")
		buf.WriteString(inline(displayTitle(n)))
		buf.WriteString("\n\n")
	}
	b.attributes(&buf, n.Attributes, n.Title)
	if len(p.kids) > 0 {
		buf.WriteString("## ")
		buf.WriteString(inline(b.m.T("in_this_section")))
		buf.WriteString("\n\n")
		from := dirOf(p.file)
		for _, k := range p.kids {
			buf.WriteString("- ")
			writeLink(&buf, linkText(b.pages[k].n), rel(from, b.pages[k].file))
			buf.WriteByte('\n')
		}
		buf.WriteByte('\n')
	}
	return finish(&buf)
}

// finish returns the bytes of buf ending in exactly one newline.
func finish(buf *bytes.Buffer) []byte {
	out := bytes.TrimRight(buf.Bytes(), "\n")
	return append(out, '\n')
}

// rank orders description first, learning objectives second, then the
// other keys by byte order, as the website does.
func rank(key string) int {
	switch key {
	case keyDescription:
		return 0
	case keyObjectives:
		return 1
	}
	return 2
}

func cmpKey(a, b string) int {
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	return strings.Compare(a, b)
}

// attributes writes every attribute of a node. JSON null means no value and
// is left out, as is a "title" equal to the node's title.
func (b *bundle) attributes(buf *bytes.Buffer, attrs map[string]json.RawMessage, nodeTitle string) {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmpKey)
	for _, k := range keys {
		raw := attrs[k]
		v, isNull, err := decode(raw)
		if isNull {
			continue
		}
		if err != nil {
			b.heading(buf, k)
			buf.WriteString(fenced(normalize(string(raw)), ""))
			buf.WriteString("\n\n")
			continue
		}
		if k == keyTitle {
			if s, ok := v.(string); ok && strings.TrimSpace(s) == strings.TrimSpace(nodeTitle) {
				continue
			}
		}
		if s, ok := v.(string); ok && k == keyDescription {
			if s = b.md.block(s); s != "" {
				buf.WriteString(s)
				buf.WriteString("\n\n")
			}
			continue
		}
		b.heading(buf, k)
		b.value(buf, v, raw)
	}
}

// heading writes the "## Label" heading of attribute key.
func (b *bundle) heading(buf *bytes.Buffer, key string) {
	buf.WriteString("## ")
	buf.WriteString(inline(b.label(key)))
	buf.WriteString("\n\n")
}

// label returns the label of key: Options.Labels, the website's localized
// label, content.DefaultLabel, or the key in quotes when it has nothing
// visible.
func (b *bundle) label(key string) string {
	s := b.labels(key)
	if strings.TrimSpace(s) == "" {
		s = content.DefaultLabel(key)
	}
	if strings.TrimSpace(s) == "" || strings.TrimSpace(inline(s)) == "" {
		s = `"` + key + `"`
	}
	return s
}

// errInvalid marks a member that is not one valid JSON value.
var errInvalid = errors.New("invalid JSON")

// decode parses one attribute value, numbers as json.Number.
func decode(raw []byte) (v any, isNull bool, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true, nil
	}
	if raw[0] == '"' {
		// Most members are strings: spare them the generic decoder.
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, false, errInvalid
		}
		return s, false, nil
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

// value writes the body of an attribute section: a string as received
// Markdown; a number or boolean as a paragraph; an array of strings as a
// list; terms and definitions as a list of bold terms; an array of flat
// records as a table; objects and arrays as nested lists, as deep as
// maxValueDepth; anything else as a fenced JSON block of the value as
// received.
func (b *bundle) value(buf *bytes.Buffer, v any, raw json.RawMessage) {
	switch v := v.(type) {
	case string:
		if s := b.md.block(v); s != "" {
			buf.WriteString(s)
			buf.WriteString("\n\n")
		}
		return
	case json.Number, bool:
		buf.WriteString(scalar(v))
		buf.WriteString("\n\n")
		return
	case []any:
		if len(v) > 0 && !allTerms(v) && table(buf, v, b.label) {
			buf.WriteByte('\n')
			return
		}
	}
	if listable(v, 0) {
		b.list(buf, v, 0, 0)
		buf.WriteByte('\n')
		return
	}
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(raw), "", "  "); err != nil {
		out.Reset()
		out.Write(raw)
	}
	buf.WriteString(fenced(normalize(out.String()), "json"))
	buf.WriteString("\n\n")
}

// scalar is the text of a number, boolean or null inside Markdown.
func scalar(v any) string {
	switch v := v.(type) {
	case json.Number:
		return inline(v.String())
	case bool:
		if v {
			return "true"
		}
		return "false"
	case nil:
		return "`null`"
	}
	return ""
}

// termPair returns the term and definition of a {term, definition}-like
// object: exactly two string members, one named like a term and one like
// a definition, the term on one line.
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
	if strings.ContainsAny(term, "\r\n") || strings.TrimSpace(term) == "" {
		return "", "", false
	}
	return term, def, haveTerm && haveDef
}

// allTerms reports whether every element of a is a term pair.
func allTerms(a []any) bool {
	for _, e := range a {
		if _, _, ok := termPair(e); !ok {
			return false
		}
	}
	return true
}

// Keys that make a two-member object a term and its definition, as on the
// website.
var (
	termKeys       = []string{"term", "word", "name", "title", "label", "concept", "key"}
	definitionKeys = []string{"definition", "meaning", "description", "value", "explanation", "text"}
)

// listable reports whether v can be shown as nested Markdown lists: a
// scalar or string, or an array or object of listable values nested at
// most maxValueDepth deep, arrays not directly holding arrays or objects
// other than term pairs.
func listable(v any, depth int) bool {
	switch v := v.(type) {
	case []any:
		if depth >= maxValueDepth {
			return false
		}
		for _, e := range v {
			switch e.(type) {
			case []any:
				return false
			case map[string]any:
				if _, _, ok := termPair(e); !ok {
					return false
				}
			}
		}
		return true
	case map[string]any:
		if depth >= maxValueDepth {
			return false
		}
		for _, x := range v {
			if !listable(x, depth+1) {
				return false
			}
		}
		return true
	}
	return true
}

// list writes a listable v as list items at the given indentation level;
// a scalar becomes a paragraph at level 0.
func (b *bundle) list(buf *bytes.Buffer, v any, level, depth int) {
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			b.item(buf, level, "`[]`")
			return
		}
		for _, e := range v {
			if term, def, ok := termPair(e); ok {
				b.item(buf, level, "**"+normalize(term)+"**: "+normalize(def))
				continue
			}
			b.item(buf, level, b.text(e))
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k, x := range v {
			if x != nil {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			b.item(buf, level, "`{}`")
			return
		}
		slices.Sort(keys)
		for _, k := range keys {
			x := v[k]
			label := inline(b.label(k)) + ":"
			switch x.(type) {
			case []any, map[string]any:
				if isEmpty(x) {
					b.item(buf, level, label+" "+emptyText(x))
					continue
				}
				b.item(buf, level, label)
				b.list(buf, x, level+1, depth+1)
			default:
				b.item(buf, level, label+" "+b.text(x))
			}
		}
	default:
		buf.WriteString(b.text(v))
		buf.WriteByte('\n')
	}
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case []any:
		return len(v) == 0
	case map[string]any:
		for _, x := range v {
			if x != nil {
				return false
			}
		}
		return true
	}
	return false
}

func emptyText(v any) string {
	if _, ok := v.([]any); ok {
		return "`[]`"
	}
	return "`{}`"
}

// text is a scalar or string inside a list item: strings as received
// Markdown.
func (b *bundle) text(v any) string {
	if s, ok := v.(string); ok {
		return normalize(s)
	}
	return scalar(v)
}

// item writes one list item; lines after the first are indented to the
// item's content column, where CommonMark keeps them inside it.
func (b *bundle) item(buf *bytes.Buffer, level int, s string) {
	indent(buf, level)
	buf.WriteString("-")
	if s == "" {
		buf.WriteByte('\n')
		return
	}
	buf.WriteByte(' ')
	first := true
	for line := range strings.Lines(s) {
		if !first && strings.TrimSpace(line) != "" {
			indent(buf, level)
			buf.WriteString("  ")
		}
		first = false
		buf.WriteString(strings.TrimRight(line, " \t\n"))
		buf.WriteByte('\n')
	}
}

// table writes an array of records whose values are all scalars or
// one-line strings as a GFM table, columns sorted by key, and reports
// whether it did.
func table(buf *bytes.Buffer, rows []any, label func(string) string) bool {
	cols := map[string]bool{}
	for _, r := range rows {
		m, ok := r.(map[string]any)
		if !ok || len(m) == 0 {
			return false
		}
		for k, x := range m {
			switch x := x.(type) {
			case string:
				if strings.ContainsAny(x, "\r\n") {
					return false
				}
			case json.Number, bool, nil:
			default:
				return false
			}
			cols[k] = true
		}
		if len(cols) > maxTableColumns {
			return false
		}
	}
	keys := make([]string, 0, len(cols))
	for k := range cols {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	buf.WriteByte('|')
	for _, k := range keys {
		buf.WriteByte(' ')
		buf.WriteString(inline(label(k)))
		buf.WriteString(" |")
	}
	buf.WriteString("\n|")
	for range keys {
		buf.WriteString(" --- |")
	}
	buf.WriteByte('\n')
	for _, r := range rows {
		m := r.(map[string]any)
		buf.WriteByte('|')
		for _, k := range keys {
			buf.WriteByte(' ')
			switch x := m[k].(type) {
			case string:
				buf.WriteString(tableCell(strings.ReplaceAll(x, "\x00", "\uFFFD")))
			case nil:
			default:
				buf.WriteString(scalar(x))
			}
			buf.WriteString(" |")
		}
		buf.WriteByte('\n')
	}
	return true
}
