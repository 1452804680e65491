package jsonbundle

import "strings"

// Format is the value of the "format" member of every tree.json this
// package writes.
const Format = "curex.tree/v1"

// Patterns of the schema. Encode checks the same rules with the functions
// below, which are several times faster than the regular expressions; tests
// check that the schema uses exactly these patterns and that the functions
// agree with them.
const (
	// localePattern is a BCP 47 style language tag ("en", "pt-BR").
	localePattern = `^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`
	// optionalLocalePattern is a language tag or the empty string.
	optionalLocalePattern = `^([A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*)?$`
	// pathPattern is a relative path with forward slashes, ending in
	// ".html": no leading "/", no empty, "." or ".." segment, no
	// backslash, colon, "?", "#" or control character (a colon would
	// read as a URL scheme in a relative link, "?" and "#" as a query or
	// fragment). It avoids look-arounds so that both Go's RE2 and
	// ECMA-262 engines (used by most schema validators) accept it.
	pathPattern = `^(?:(?:[^./\\:?#\x00-\x1F\x7F][^/\\:?#\x00-\x1F\x7F]*|\.[^./\\:?#\x00-\x1F\x7F][^/\\:?#\x00-\x1F\x7F]*|\.\.[^/\\:?#\x00-\x1F\x7F]+)/)*[^/\\:?#\x00-\x1F\x7F]*\.html$`
)

// validLocale reports whether s matches localePattern.
func validLocale(s string) bool {
	for i, sub := range strings.Split(s, "-") {
		lo, hi := 2, 8
		if i == 0 {
			hi = 3
		}
		if len(sub) < lo || len(sub) > hi {
			return false
		}
		for j := 0; j < len(sub); j++ {
			c := sub[j] | 0x20 // lower-case letters; digits are unchanged
			letter := 'a' <= c && c <= 'z'
			digit := '0' <= sub[j] && sub[j] <= '9'
			if !letter && (i == 0 || !digit) {
				return false
			}
		}
	}
	return true
}

// validPath reports whether p matches pathPattern.
func validPath(p string) bool {
	if !strings.HasSuffix(p, ".html") {
		return false
	}
	for seg := range strings.SplitSeq(p, "/") {
		if !validSegment(seg) {
			return false
		}
	}
	return true
}

// validSegment reports whether seg is one segment of a path pathPattern
// matches (it holds no "/").
func validSegment(seg string) bool {
	if seg == "" || seg == "." || seg == ".." {
		return false
	}
	for i := 0; i < len(seg); i++ {
		switch c := seg[i]; {
		case c < 0x20, c == 0x7F, c == '\\', c == ':', c == '?', c == '#', c == '/':
			return false
		}
	}
	return true
}
