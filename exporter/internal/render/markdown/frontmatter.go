package markdown

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// frontMatter writes YAML front matter, one key a line in the order of the
// calls. Keys are fixed identifiers; every string value is double-quoted
// and escaped, so that it parses back to itself in YAML 1.1 and 1.2
// (PyYAML for MkDocs, go.yaml.in/yaml/v3, Hugo) and never holds a line that could end
// the front matter.
type frontMatter struct {
	buf *bytes.Buffer
	// prefix is the indentation of the current mapping.
	prefix string
}

func (f *frontMatter) begin() { f.buf.WriteString("---\n") }

func (f *frontMatter) end() { f.buf.WriteString("---\n\n") }

func (f *frontMatter) key(k string) {
	f.buf.WriteString(f.prefix)
	f.buf.WriteString(k)
	f.buf.WriteByte(':')
}

func (f *frontMatter) str(k, v string) {
	f.key(k)
	f.buf.WriteByte(' ')
	quote(f.buf, v)
	f.buf.WriteByte('\n')
}

func (f *frontMatter) int(k string, v int) {
	f.key(k)
	f.buf.WriteByte(' ')
	f.buf.WriteString(strconv.Itoa(v))
	f.buf.WriteByte('\n')
}

func (f *frontMatter) bool(k string, v bool) {
	f.key(k)
	f.buf.WriteByte(' ')
	f.buf.WriteString(strconv.FormatBool(v))
	f.buf.WriteByte('\n')
}

// list writes a sequence of strings, "[]" when empty.
func (f *frontMatter) list(k string, vs []string) {
	f.key(k)
	if len(vs) == 0 {
		f.buf.WriteString(" []\n")
		return
	}
	f.buf.WriteByte('\n')
	for _, v := range vs {
		f.buf.WriteString(f.prefix)
		f.buf.WriteString("  - ")
		quote(f.buf, v)
		f.buf.WriteByte('\n')
	}
}

// mapping opens a nested mapping; fn writes its members.
func (f *frontMatter) mapping(k string, fn func()) {
	f.key(k)
	f.buf.WriteByte('\n')
	saved := f.prefix
	f.prefix += "  "
	fn()
	f.prefix = saved
}

const hexDigits = "0123456789ABCDEF"

// quote writes s as a YAML double-quoted scalar. Escaped: the quote and
// backslash; every C0 and C1 control character, DEL, U+FEFF, U+FFFE and
// U+FFFF (not printable in YAML); the line separators U+0085, U+2028 and
// U+2029 (line breaks in YAML 1.1); and the zero-width space, word joiner
// and bidirectional embedding, override and isolate controls (U+200B,
// U+2060, U+202A–U+202E, U+2066–U+2069), so that the front matter shows
// what it holds. Joiners and marks that scripts need (U+200C–U+200F) are
// kept. Invalid UTF-8 becomes U+FFFD.
func quote(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			buf.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			buf.WriteString(`\"`)
		case r == '\\':
			buf.WriteString(`\\`)
		case r == '\n':
			buf.WriteString(`\n`)
		case r == '\t':
			buf.WriteString(`\t`)
		case r == '\r':
			buf.WriteString(`\r`)
		case r == utf8.RuneError && size == 1:
			buf.WriteString("\uFFFD")
		case r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0xfeff || r == 0xfffe || r == 0xffff ||
			r == 0x2028 || r == 0x2029 || r == 0x200b || r == 0x2060 || bidiControl(r):
			buf.WriteString(`\u`)
			buf.WriteByte(hexDigits[r>>12&0xf])
			buf.WriteByte(hexDigits[r>>8&0xf])
			buf.WriteByte(hexDigits[r>>4&0xf])
			buf.WriteByte(hexDigits[r&0xf])
		default:
			buf.WriteRune(r)
		}
	}
	buf.WriteByte('"')
}
