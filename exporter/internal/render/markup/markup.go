package markup

import (
	"strings"
	"unicode/utf8"

	"github.com/curex/curex/exporter/internal/model"
)

// forbidden reports whether r may not stand as text in HTML or XML 1.0:
// a control character other than tab, line feed and carriage return, or
// a noncharacter.
func forbidden(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0xFDD0 && r <= 0xFDEF, r&0xFFFE == 0xFFFE:
		return true
	}
	return false
}

// lineBreak reports whether r is a tab, line feed or carriage return,
// which a one-line text does not keep.
func lineBreak(r rune) bool { return r == '\t' || r == '\n' || r == '\r' }

// Text returns s fit for HTML and XML text: invalid UTF-8, forbidden
// control characters and noncharacters become U+FFFD; tabs and line breaks
// stay. Text that needs no change is returned as it is, without copying.
func Text(s string) string {
	return replace(s, forbidden, '\uFFFD')
}

// Line returns s fit for HTML and XML text on one line: invalid UTF-8
// becomes U+FFFD, and forbidden control characters, noncharacters, tabs
// and line breaks become spaces. Text that needs no change is returned as
// it is, without copying.
func Line(s string) string {
	return replace(s, func(r rune) bool { return lineBreak(r) || forbidden(r) }, ' ')
}

// replace returns s with each byte of invalid UTF-8 replaced by U+FFFD
// (strings.Map reads s as a range loop does) and every rune bad reports
// replaced by with.
func replace(s string, bad func(rune) bool, with rune) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, bad) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if bad(r) {
			return with
		}
		return r
	}, s)
}

// Lang returns a locale code as a lang attribute value: white space around
// it trimmed and "_" read as "-" (model.LocaleTag), its case kept; a code
// that is not a well-formed language tag (a language of 2, 3 or 5 to 8
// letters, then subtags of 1 to 8 letters or digits, 64 bytes at most)
// gives "", the unknown language.
func Lang(code string) string {
	code = model.LocaleTag(code)
	if code == "" || len(code) > 64 {
		return ""
	}
	for i, part := range strings.Split(code, "-") {
		if part == "" || len(part) > 8 || i == 0 && (len(part) < 2 || len(part) > 3 && len(part) < 5) {
			return ""
		}
		for j := 0; j < len(part); j++ {
			c := part[j]
			alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !alpha && (i == 0 || c < '0' || c > '9') {
				return ""
			}
		}
	}
	return code
}
