package attrs

import (
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// A node's members are mostly strings and numbers, read four times a
// build (its images, its formulas, its search text, its page): decoding
// them with encoding/json costs more than the rest of Parse together
// (6 µs for a description of a kilobyte, 1.5 µs for a number). literal
// reads the two common shapes itself and leaves every other value, and
// every literal it is not sure of, to encoding/json; FuzzLiteral holds it
// to encoding/json's result.

// unescaped is what each one-character escape of a JSON string stands
// for (0: not one).
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// literal returns the value of raw (trimmed, not empty) when it is a JSON
// number (as a json.Number, the text as written) or a JSON string in
// valid UTF-8 without a surrogate escape; ok is false otherwise, and the
// caller decodes raw with encoding/json.
func literal(raw []byte) (v any, ok bool) {
	if raw[0] == '"' {
		s, ok := quoted(raw)
		return s, ok
	}
	if number(raw) {
		return json.Number(raw), true
	}
	return nil, false
}

// quoted reads a string literal: raw must be one, whole (an unescaped
// quote, a control character or an unknown escape is declined), its text
// in valid UTF-8 (encoding/json replaces what is not) and its \u escapes
// no surrogates (encoding/json pairs them, or replaces them).
func quoted(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	var out []byte // made at the first escape
	from := 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c < 0x20 || c == '"':
			return "", false
		case c == '\\':
			if i+1 == len(body) {
				return "", false
			}
			if out == nil {
				out = make([]byte, 0, len(body))
			}
			out = append(out, body[from:i]...)
			if body[i+1] == 'u' {
				r, ok := hex4(body[i+2:])
				if !ok || utf16.IsSurrogate(r) {
					return "", false // a pair, or half of one: encoding/json's
				}
				out = utf8.AppendRune(out, r)
				i += 5
			} else {
				if unescaped[body[i+1]] == 0 {
					return "", false
				}
				out = append(out, unescaped[body[i+1]])
				i++
			}
			from = i + 1
		}
	}
	if out == nil {
		out = body
	} else {
		out = append(out, body[from:]...)
	}
	// An escape stands for a whole character, whose first byte cannot
	// complete a sequence the text left open: out is valid exactly when
	// the text between the escapes is.
	if !utf8.Valid(out) {
		return "", false
	}
	return string(out), true
}

// number reports whether b is a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func number(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(b)
}

// hex4 reads the four hexadecimal digits b starts with.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// digits returns the index past the digits of b from i.
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
