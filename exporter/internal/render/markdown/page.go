package markdown

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"

	"github.com/curex/curex/exporter/internal/render/attrs"
	"github.com/curex/curex/exporter/internal/render/content"
)

// maxValueDepth is how deep objects and arrays nest as Markdown lists;
// deeper values are shown as JSON.
const maxValueDepth = 4

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

// attributes writes every attribute of a node, in the order and with the
// omissions of attrs.Parse: a member that is not valid JSON as a fenced
// block of it as received, the description string without a heading,
// every other member under a "## Label" heading.
func (b *bundle) attributes(buf *bytes.Buffer, members map[string]json.RawMessage, nodeTitle string) {
	for _, s := range b.o.Order.Parse(members, nodeTitle) {
		switch {
		case s.Value.Kind == attrs.Invalid:
			b.heading(buf, s.Key)
			buf.WriteString(content.Fence(normalize(string(s.Raw)), ""))
			buf.WriteString("\n\n")
		case s.Lead:
			if t := b.md.block(s.Value.Text); t != "" {
				buf.WriteString(t)
				buf.WriteString("\n\n")
			}
		default:
			b.heading(buf, s.Key)
			b.value(buf, s.Key, s.Value, s.Raw)
		}
	}
}

// heading writes the "## Label" heading of attribute key.
func (b *bundle) heading(buf *bytes.Buffer, key string) {
	buf.WriteString("## ")
	buf.WriteString(inline(b.label(key)))
	buf.WriteString("\n\n")
}

// label returns the label of key: the localized label every format gives
// it, content.DefaultLabel, or the key in quotes when it has nothing
// visible.
func (b *bundle) label(key string) string {
	s := b.m.AttributeLabel(key)
	if strings.TrimSpace(s) == "" {
		s = content.DefaultLabel(key)
	}
	if strings.TrimSpace(s) == "" || strings.TrimSpace(inline(s)) == "" {
		s = `"` + key + `"`
	}
	return s
}

// value writes the body of an attribute section: a string as received
// Markdown; a number or boolean as a paragraph; a table as a GFM table;
// lists, terms (bold terms), records and objects as nested lists, as deep
// as maxValueDepth; anything else as a fenced JSON block of the member as
// received.
func (b *bundle) value(buf *bytes.Buffer, key string, v attrs.Value, raw json.RawMessage) {
	if s, ok := b.kind(v); ok {
		buf.WriteString(s)
		buf.WriteString("\n\n")
		return
	}
	switch v.Kind {
	case attrs.Text:
		if s := b.md.block(v.Text); s != "" {
			buf.WriteString(s)
			buf.WriteString("\n\n")
		}
		return
	case attrs.Number, attrs.Bool:
		buf.WriteString(b.scalar(key, v))
		buf.WriteString("\n\n")
		return
	case attrs.Table:
		b.table(buf, v)
		buf.WriteByte('\n')
		return
	}
	if listable(v, 0) {
		b.list(buf, v, 0)
		buf.WriteByte('\n')
		return
	}
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(raw), "", "  "); err != nil {
		out.Reset()
		out.Write(raw)
	}
	buf.WriteString(content.Fence(normalize(out.String()), "json"))
	buf.WriteString("\n\n")
}

// scalar is the text of a number, boolean or null inside Markdown, the
// value of the member key: minutes as a duration (attrs.Minutes) and a
// boolean as yes or no in the export's language, as every format shows
// them.
func (b *bundle) scalar(key string, v attrs.Value) string {
	switch v.Kind {
	case attrs.Number:
		if n, ok := attrs.Minutes(key, v); ok {
			return inline(b.m.Duration(n))
		}
		if n, ok := attrs.Count(key, v); ok {
			return number(b.m.Number(n))
		}
		return inline(v.Text)
	case attrs.Bool:
		return inline(b.m.YesNo(v.Bool))
	case attrs.Null:
		return "`null`"
	}
	return ""
}

// listable reports whether v can be shown as nested Markdown lists: a
// scalar or string, or a list, terms, records or object of listable values
// nested at most maxValueDepth deep, lists holding only scalars, strings
// and term pairs. A table nested in a list is listed as records.
func listable(v attrs.Value, depth int) bool {
	switch v.Kind {
	case attrs.List:
		for _, e := range v.Items {
			if !e.Scalar() && e.Pair == nil {
				return false
			}
		}
	case attrs.Terms:
	case attrs.Table, attrs.Records:
		for _, e := range v.Items {
			if !listable(e, depth+1) || e.Kind != attrs.Fields {
				return false
			}
		}
	case attrs.Fields:
		for _, f := range v.Fields {
			if !listable(f.Value, depth+1) {
				return false
			}
		}
	case attrs.JSON, attrs.Invalid:
		return false
	default:
		return true
	}
	return depth < maxValueDepth
}

// list writes a listable v as list items at the given indentation level;
// a scalar becomes a paragraph at level 0.
func (b *bundle) list(buf *bytes.Buffer, v attrs.Value, level int) {
	switch v.Kind {
	case attrs.List:
		if len(v.Items) == 0 {
			b.item(buf, level, "`[]`")
			return
		}
		for _, e := range v.Items {
			if e.Pair != nil {
				b.term(buf, level, *e.Pair)
				continue
			}
			b.item(buf, level, b.text(e))
		}
	case attrs.Terms:
		for _, t := range v.Terms {
			b.term(buf, level, t)
		}
	case attrs.Table, attrs.Records:
		for _, r := range v.Items {
			b.record(buf, r, level)
		}
	case attrs.Fields:
		if len(v.Fields) == 0 {
			b.item(buf, level, "`{}`")
			return
		}
		for _, f := range v.Fields {
			x := f.Value
			label := inline(b.label(f.Key)) + ":"
			switch {
			case x.Scalar():
				b.item(buf, level, label+" "+b.textOf(f.Key, x))
			case x.Empty():
				b.item(buf, level, label+" "+emptyText(x))
			default:
				b.item(buf, level, label)
				b.list(buf, x, level+1)
			}
		}
	default:
		buf.WriteString(b.text(v))
		buf.WriteByte('\n')
	}
}

// term writes a term and its definition as one list item.
func (b *bundle) term(buf *bytes.Buffer, level int, t attrs.Term) {
	b.item(buf, level, "**"+mathSource(normalize(t.Term))+"**: "+mathSource(normalize(t.Definition)))
}

// record writes one record of a list of records as a list item holding
// the list of its fields: the first field's bullet follows the record's
// ("-   - Criterion: ..."), which CommonMark and Python-Markdown both read
// as a list nested in the item.
func (b *bundle) record(buf *bytes.Buffer, r attrs.Value, level int) {
	if r.Empty() {
		b.item(buf, level, "`{}`")
		return
	}
	start := buf.Len()
	b.list(buf, r, level+1)
	// The fields' first line starts with the indentation of level+1, four
	// spaces more than level's: they become the record's bullet.
	copy(buf.Bytes()[start+4*level:], "-   ")
}

func emptyText(v attrs.Value) string {
	if v.Kind == attrs.List {
		return "`[]`"
	}
	return "`{}`"
}

// text is a scalar or string inside a list item: strings as received
// Markdown.
func (b *bundle) text(v attrs.Value) string { return b.textOf("", v) }

// textOf is text for the value of the member key.
func (b *bundle) textOf(key string, v attrs.Value) string {
	if s, ok := b.kind(v); ok {
		return s
	}
	if v.Kind == attrs.Text {
		return content.DefangNested(mathSource(normalize(v.Text)))
	}
	return b.scalar(key, v)
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

// table writes flat records as a GFM table, a column per key; a null or
// missing value is an empty cell.
func (b *bundle) table(buf *bytes.Buffer, v attrs.Value) {
	buf.WriteByte('|')
	for _, k := range v.Columns {
		buf.WriteByte(' ')
		buf.WriteString(inline(b.label(k)))
		buf.WriteString(" |")
	}
	buf.WriteString("\n|")
	for range v.Columns {
		buf.WriteString(" --- |")
	}
	buf.WriteByte('\n')
	for _, r := range v.Items {
		buf.WriteByte('|')
		for _, k := range v.Columns {
			buf.WriteByte(' ')
			if x, ok := r.Get(k); ok {
				if x.Kind == attrs.Text {
					buf.WriteString(tableCell(content.DefangNested(strings.ReplaceAll(x.Text, "\x00", "\uFFFD"))))
				} else {
					buf.WriteString(b.scalar(k, x))
				}
			}
			buf.WriteString(" |")
		}
		buf.WriteByte('\n')
	}
}

// kind returns the Markdown of a Text value that says what it is, as
// every format shows it: a date (attrs.Date) in the export's language, a
// URL (attrs.Link) as an autolink when content.LinkAllowed; false for any
// other value.
func (b *bundle) kind(v attrs.Value) (string, bool) {
	if d, ok := attrs.Date(v); ok {
		return inline(b.m.Date(d)), true
	}
	if u, ok := attrs.Link(v); ok && content.LinkAllowed(u) {
		return "<" + u + ">", true
	}
	return "", false
}

// number returns a count as i18n.Messages.Number writes it: as it is when
// it holds digits, separators and a sign only ("12.500" starts no list:
// a list item's number is followed by a space), else escaped.
func number(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !unicode.IsDigit(r) && r != '.' && r != ',' && r != '-' && r != '\'' && r != '\u202f' && r != '\u00a0' && r != '\u066b' && r != '\u066c'
	}) && s[len(s)-1] != '.' {
		return s
	}
	return inline(s)
}
