package html

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The search index's files are most of the JSON a website holds, and
// encoding/json's reflection was a fifth of their build (issue 27). The
// functions below write the types of search.go (searchEntry,
// searchTitles, searchChunk, searchTerms) by appending to a []byte, byte
// for byte as json.Marshal writes them: the struct tags' names and
// order, omitempty, null for a nil slice or map, map keys sorted, and
// strings escaped as appendJSONString says. TestSearchJSONAsMarshal
// compares them with json.Marshal, FuzzAppendJSONString the strings.
// The head (searchHead, one a tree) and other small files keep
// json.Marshal.

// jsonHex are the digits of a \u00XX escape, lower case as encoding/json
// writes them.
const jsonHex = "0123456789abcdef"

// appendJSONString appends s as a JSON string as json.Marshal writes it:
// " and \ escaped, \b \f \n \r \t as such, the other control characters
// and <, > and & as \u00XX (so that the string cannot end a script
// element), U+2028 and U+2029 as \u2028 and \u2029 (line ends in
// JavaScript), and each byte of invalid UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONStrings appends ss as a JSON array of strings (null when
// nil).
func appendJSONStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// appendJSONInts appends ns as a JSON array of numbers (null when nil).
func appendJSONInts(b []byte, ns []int) []byte {
	if ns == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

// appendJSONEntries appends search.json: es as a JSON array (null when
// nil). It grows b once, to the size of es without escapes: appending
// a file of megabytes to a slice that doubles as it goes cost most of
// the encoding's time.
func appendJSONEntries(b []byte, es []searchEntry) []byte {
	if es == nil {
		return append(b, "null"...)
	}
	n := 2
	for i := range es {
		e := &es[i]
		n += len(e.ID) + len(e.Title) + len(e.TypeDisplay) + len(e.Path) + len(e.Lang) + len(e.Text) + 80
		for _, f := range e.Fields {
			n += len(f.Key) + len(f.Label) + len(f.Text) + 32
		}
	}
	b = slices.Grow(b, n)
	b = append(b, '[')
	for i := range es {
		if i > 0 {
			b = append(b, ',')
		}
		b = es[i].appendJSON(b)
	}
	return append(b, ']')
}

// appendJSON appends e as json.Marshal writes it.
func (e *searchEntry) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, e.ID)
	b = append(b, `,"title":`...)
	b = appendJSONString(b, e.Title)
	b = append(b, `,"type_display":`...)
	b = appendJSONString(b, e.TypeDisplay)
	b = append(b, `,"path":`...)
	b = appendJSONString(b, e.Path)
	if e.Lang != "" {
		b = append(b, `,"lang":`...)
		b = appendJSONString(b, e.Lang)
	}
	b = append(b, `,"text":`...)
	b = appendJSONString(b, e.Text)
	if len(e.Fields) > 0 {
		b = append(b, `,"fields":[`...)
		for i, f := range e.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"key":`...)
			b = appendJSONString(b, f.Key)
			b = append(b, `,"label":`...)
			b = appendJSONString(b, f.Label)
			b = append(b, `,"text":`...)
			b = appendJSONString(b, f.Text)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSON appends t as json.Marshal writes it.
func (t *searchTitles) appendJSON(b []byte) []byte {
	b = append(b, `{"first":`...)
	b = strconv.AppendInt(b, int64(t.First), 10)
	b = append(b, `,"nodes":`...)
	if t.Nodes == nil {
		b = append(b, "null"...)
		return append(b, '}')
	}
	b = append(b, '[')
	for i, row := range t.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONStrings(b, row)
	}
	return append(b, "]}"...)
}

// appendJSON appends c as json.Marshal writes it. The items of a node
// are label indexes (int) and texts (string); an item of another type,
// which buildSearch never makes, is written by json.Marshal.
func (c *searchChunk) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"first":`...)
	b = strconv.AppendInt(b, int64(c.First), 10)
	b = append(b, `,"nodes":`...)
	if c.Nodes == nil {
		b = append(b, "null"...)
		return append(b, '}'), nil
	}
	b = append(b, '[')
	for i, items := range c.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		if items == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '[')
		for k, it := range items {
			if k > 0 {
				b = append(b, ',')
			}
			switch v := it.(type) {
			case int:
				b = strconv.AppendInt(b, int64(v), 10)
			case string:
				b = appendJSONString(b, v)
			default:
				js, err := json.Marshal(v)
				if err != nil {
					return nil, err
				}
				b = append(b, js...)
			}
		}
		b = append(b, ']')
	}
	return append(b, "]}"...), nil
}

// appendJSON appends t as json.Marshal writes it: each map's keys in
// byte order.
func (t *searchTerms) appendJSON(b []byte) []byte {
	b = append(b, `{"terms":`...)
	if t.Terms == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		for i, stem := range slices.Sorted(maps.Keys(t.Terms)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, stem)
			b = append(b, ':')
			b = appendJSONInts(b, t.Terms[stem])
		}
		b = append(b, '}')
	}
	if len(t.Words) > 0 {
		b = append(b, `,"words":{`...)
		for i, stem := range slices.Sorted(maps.Keys(t.Words)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, stem)
			b = append(b, ':')
			b = appendJSONString(b, t.Words[stem])
		}
		b = append(b, '}')
	}
	return append(b, '}')
}
