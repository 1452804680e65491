package content

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Labels gives display labels for attribute members in the page's
// language. A nil Labels, or one that returns "", means DefaultLabel.
// Labels are plain text; Node escapes them.
type Labels func(key string) string

// DefaultLabel humanizes an attribute key: underscores and hyphens become
// spaces, runs of space collapse and the first letter is upper case, so
// "estimated_minutes" gives "Estimated minutes" and "learning_objectives"
// gives "Learning objectives". A key with nothing to show gives itself.
func DefaultLabel(key string) string {
	s := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return ' '
		}
		return r
	}, key)
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return key
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// label returns the label of key, falling back to DefaultLabel and, for a
// key with no visible characters, to the key in quotes.
func (l Labels) label(key string) string {
	var s string
	if l != nil {
		s = l(key)
	}
	if strings.TrimSpace(s) == "" {
		s = DefaultLabel(key)
	}
	if strings.TrimSpace(s) == "" {
		s = `"` + key + `"`
	}
	return s
}

// className returns key reduced to [a-z0-9-]: ASCII letters lower-cased,
// every run of other characters one '-', no leading or trailing '-'.
func className(key string) string {
	var b strings.Builder
	dash := false
	for i := 0; i < len(key) && b.Len() < 64; i++ {
		c := key[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
			fallthrough
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteByte(c)
		default:
			dash = true
		}
	}
	return b.String()
}
