package content

import (
	"strings"

	"github.com/yuin/goldmark/util"
)

// urlKind classifies a link or image destination.
type urlKind int

const (
	urlUnsafe   urlKind = iota // a scheme outside the allowlist: no link
	urlRelative                // relative reference: same site
	urlExternal                // http, https or protocol-relative
	urlMailto                  // mailto:
)

// classifyURL decides what a destination, after Markdown has decoded its
// escapes and entities, would mean to a browser. It mirrors the WHATWG URL
// parser's leniency: leading and trailing C0 controls and spaces are
// ignored, tabs and newlines anywhere are removed, the scheme is
// case-insensitive, and a backslash counts as a slash.
func classifyURL(dest string) urlKind {
	s := strings.TrimFunc(dest, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			switch strings.ToLower(s[:i]) {
			case "http", "https":
				return urlExternal
			case "mailto":
				return urlMailto
			}
			return urlUnsafe
		case c == '/' || c == '\\' || c == '?' || c == '#':
			if i == 0 && len(s) > 1 && (s[1] == '/' || s[1] == '\\') && (c == '/' || c == '\\') {
				return urlExternal // //host/path
			}
			return urlRelative
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
			i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
			// may still be a scheme
		default:
			// Not a scheme character: a browser would treat the whole
			// thing as a relative path ("a b:c" is relative). We are
			// stricter: a colon anywhere before the path ends is refused.
			if j := strings.IndexAny(s[i:], ":/?#\\"); j >= 0 && s[i+j] == ':' {
				return urlUnsafe
			}
			return urlRelative
		}
	}
	return urlRelative
}

// destKind classifies a link or image destination (escapes and entities
// already resolved) as the page carries it: percent-escaped exactly as
// writeHref and writeImage write it. The judge reads what the browser
// reads, so `\0:` (written `%5C0:`) and `%5c0:` get one verdict, and
// `\\host/p` (written `%5C%5Chost/p`, a path on the same site) is no
// external image.
func destKind(dest []byte) urlKind {
	return classifyURL(string(util.URLEscape(dest, false)))
}

// linkAllowed reports whether a link may point at dest.
func linkAllowed(k urlKind) bool { return k != urlUnsafe }

// imageAllowed reports whether an image may load from dest: http and https
// only. Content images are fetched by the assets stage (or stay at their
// URL with --assets remote); a relative or absolute path would name a file
// of whatever serves or prints the page (the export machine's disk, for
// the PDF), so such an image shows its alt text instead.
func imageAllowed(k urlKind) bool { return k == urlExternal }

// LinkAllowed reports whether content may link to dest, a URL as written
// (not percent-escaped): the gate every link of content passes, in
// Markdown and in the values of attributes (attrs.Link), which the
// Markdown bundle asks too.
func LinkAllowed(dest string) bool { return linkAllowed(destKind([]byte(dest))) }
