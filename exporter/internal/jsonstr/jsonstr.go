// Package jsonstr appends strings as JSON, byte for byte as encoding/json
// writes them, for the encoders that write JSON without reflection (the
// JSON bundle, the website's search index). It is the one home of JSON's
// string escaping in curex: quotes, backslashes and control characters
// escaped, U+2028 and U+2029 as \u2028 and \u2029 (line ends in
// JavaScript), each byte of invalid UTF-8 as \ufffd, and, for text that
// may sit in HTML, "<", ">" and "&" as \u003c, \u003e and \u0026.
package jsonstr

import "unicode/utf8"

// hex are the digits of a \u00XX escape, lower case as encoding/json
// writes them.
const hex = "0123456789abcdef"

// Append appends s to dst as a JSON string in quotes, as an
// encoding/json Encoder with SetEscapeHTML(false) writes it: "<", ">"
// and "&" are kept.
func Append(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, false)
	return append(dst, '"')
}

// AppendEscaped appends s escaped as Append does, without the quotes.
func AppendEscaped(dst []byte, s string) []byte {
	return appendEscaped(dst, s, false)
}

// AppendHTMLSafe appends s to dst as a JSON string in quotes, as
// json.Marshal writes it: "<", ">" and "&" are escaped too, so that the
// string cannot end a script element.
func AppendHTMLSafe(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, true)
	return append(dst, '"')
}

// appendEscaped appends s escaped, without quotes; html escapes "<", ">"
// and "&" as well.
func appendEscaped(dst []byte, s string, html bool) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendByte(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// appendByte appends the escape of the ASCII byte c: \" and \\, the short
// escapes of five control characters, and \u00XX for the others.
func appendByte(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}
