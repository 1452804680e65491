package content

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/curex/curex/exporter/internal/render/i18n"
)

// Words are what node rendering says in the page's language: the labels
// of attribute members and the values that carry a unit or a kind.
// i18n.Messages is a Words, and every format passes its page's; nil means
// English. Words are plain text; Node escapes them.
type Words interface {
	// AttributeLabel names the member key; "" means DefaultLabel.
	AttributeLabel(key string) string
	// Duration writes a number of minutes ("50 min", "7 hr 30 min").
	Duration(minutes int) string
	// YesNo writes a boolean ("Yes", "No").
	YesNo(b bool) string
	// Number writes a count's number literal with its digits grouped
	// ("12,500"; see attrs.Count).
	Number(literal string) string
	// Date writes a calendar date ("March 3, 2026"; see attrs.Date).
	Date(d time.Time) string
}

// wordsOr returns w, or English when w is nil.
func wordsOr(w Words) Words {
	if w == nil {
		return i18n.For("en")
	}
	return w
}

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
func label(w Words, key string) string {
	s := w.AttributeLabel(key)
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
