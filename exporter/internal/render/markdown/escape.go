package markdown

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/curex/curex/exporter/internal/render/markup"
)

// inline escapes plain text (a title, a label) for use in Markdown inline
// content: a heading, a list item, a link text or a table cell. The result
// renders as the text itself in CommonMark and GFM (GitHub, Hugo, mdBook)
// and in Python-Markdown (MkDocs), and cannot open or close any construct:
//
//   - the punctuation both dialects let a backslash escape and that could
//     start a construct here (\ ` * _ { } [ ] #) is escaped with a
//     backslash, as are "+", "-", "." or ")" where they could start a
//     list; "(" and ")" need nothing, as no link text can end before them;
//   - <, >, &, | and ~ become character references, because
//     Python-Markdown has no backslash escape for them;
//   - bidirectional embedding, override and isolate controls become
//     character references, so they render the same but cannot reorder
//     the Markdown source as shown in an editor;
//   - line breaks, tabs and other control characters become spaces,
//     invalid UTF-8 becomes U+FFFD, and surrounding spaces are trimmed.
func inline(s string) string {
	s = plain(s)
	if plainInline(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i, r := range s {
		switch {
		case r == '\\' || r == '`' || r == '*' || r == '_' || r == '{' || r == '}' ||
			r == '[' || r == ']' || r == '#':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '|':
			b.WriteString("&#124;")
		case r == '~':
			b.WriteString("&#126;")
		case (r == '-' || r == '+') && i == 0:
			b.WriteByte('\\')
			b.WriteRune(r)
		case (r == '.' || r == ')') && listNumber(s[:i]):
			b.WriteByte('\\')
			b.WriteRune(r)
		case bidiControl(r):
			b.WriteString("&#x")
			b.WriteString(strings.ToUpper(strconv.FormatInt(int64(r), 16)))
			b.WriteByte(';')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// plain returns s as one line of text: markup.Line (control characters,
// line breaks included, and noncharacters become spaces, each byte of
// invalid UTF-8 becomes U+FFFD), without surrounding white space.
func plain(s string) string { return strings.TrimSpace(markup.Line(s)) }

// validUTF8 returns s with each byte of invalid UTF-8 replaced by U+FFFD,
// as encoding/json and a range loop read it.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.Map(func(r rune) rune { return r }, s)
}

// plainInline reports whether s needs no escaping: ASCII letters, digits,
// spaces and harmless punctuation, or any rune above U+00A0 that is not a
// bidirectional control, and no character that could start a list.
func plainInline(s string) bool {
	if s == "" {
		return true
	}
	if c := s[0]; c == '-' || c == '+' || c >= '0' && c <= '9' {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
		case r == ' ' || r == ',' || r == ';' || r == ':' || r == '.' || r == '?' || r == '\'' || r == '(' || r == ')' ||
			r == '"' || r == '/' || r == '=' || r == '%' || r == '$' || r == '@' || r == '^' || r == '-' || r == '+' || r == '!':
		case r >= 0xa0 && r != utf8.RuneError && !bidiControl(r) && r != 0x2028 && r != 0x2029:
		default:
			return false
		}
	}
	return true
}

// listNumber reports whether prefix, the text before a "." or ")", is 1 to
// 9 digits, which with it would start an ordered list.
func listNumber(prefix string) bool {
	if prefix == "" || len(prefix) > 9 {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if prefix[i] < '0' || prefix[i] > '9' {
			return false
		}
	}
	return true
}

// bidiControl reports whether r is a bidirectional embedding, override or
// isolate control (U+202A–U+202E, U+2066–U+2069). Marks such as U+200F
// are left alone: right-to-left text needs them.
func bidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// tableCell escapes received Markdown for a GFM table cell: a pipe would
// end the cell, so it is escaped with a backslash, which GFM and
// Python-Markdown tables both honour, inside code spans too.
func tableCell(s string) string {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "|") {
		return s
	}
	var b strings.Builder
	backslashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '|' && backslashes%2 == 0 {
			b.WriteByte('\\')
		}
		if c == '\\' {
			backslashes++
		} else {
			backslashes = 0
		}
		b.WriteByte(c)
	}
	return b.String()
}
