package fetch

import (
	"strings"
	"unicode/utf8"
)

// Bidirectional formatting characters (Unicode Bidirectional Algorithm).
const (
	bidiLRE = '\u202A' // left-to-right embedding
	bidiRLE = '\u202B' // right-to-left embedding
	bidiPDF = '\u202C' // pop directional formatting
	bidiLRO = '\u202D' // left-to-right override
	bidiRLO = '\u202E' // right-to-left override
	bidiLRI = '\u2066' // left-to-right isolate
	bidiRLI = '\u2067' // right-to-left isolate
	bidiFSI = '\u2068' // first strong isolate
	bidiPDI = '\u2069' // pop directional isolate
)

// PlainText makes a one-line text from the API (a title, a type name) safe
// to show anywhere:
//
//   - control characters (C0, DEL and C1: NUL, escape sequences, line
//     breaks, tabs) become spaces, as in a title they are never meant;
//   - bidirectional embeddings, overrides and isolates left open are closed
//     at its end, and closers with nothing to close are dropped, so the
//     text cannot reorder the text around it (a type name "\u202Egnp.exe"
//     beside a title) in any format, whatever markup a renderer puts
//     around it. Balanced controls stay: they only act inside the text.
//
// Invalid UTF-8 becomes U+FFFD. Text with none of these is returned as it
// is, without copying.
func PlainText(s string) string {
	if !needsPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	var open []rune // open embeddings (PDF closes) and isolates (PDI closes)
	for _, r := range s {
		switch {
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
			b.WriteByte(' ')
		case r == bidiLRE || r == bidiRLE || r == bidiLRO || r == bidiRLO:
			open = append(open, bidiPDF)
			b.WriteRune(r)
		case r == bidiLRI || r == bidiRLI || r == bidiFSI:
			open = append(open, bidiPDI)
			b.WriteRune(r)
		case r == bidiPDF:
			// A PDF closes the innermost embedding, not across an isolate.
			if n := len(open); n > 0 && open[n-1] == bidiPDF {
				open = open[:n-1]
				b.WriteRune(r)
			}
		case r == bidiPDI:
			// A PDI closes the innermost isolate, and with it every
			// embedding opened inside it.
			i := len(open) - 1
			for i >= 0 && open[i] != bidiPDI {
				i--
			}
			if i >= 0 {
				open = open[:i]
				b.WriteRune(r)
			}
		default:
			b.WriteRune(r) // utf8.RuneError for invalid bytes
		}
	}
	for i := len(open) - 1; i >= 0; i-- {
		b.WriteRune(open[i])
	}
	return b.String()
}

// needsPlain reports whether PlainText would change s.
func needsPlain(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return true
		}
		if (r >= 0x80 && r < 0xa0) || (r >= bidiLRE && r <= bidiRLO) || (r >= bidiLRI && r <= bidiPDI) {
			return true
		}
		i += size
	}
	return false
}
