package html

import (
	"net/url"
	"strings"

	"github.com/curex/curex/exporter/internal/layout"
)

// rel returns the relative URL from the page at from to the file at to,
// both relative to the output root with forward slashes
// ("a/b/x/index.html", "a/c/index.html" → "../../c/index.html"). Every
// segment is escaped, and a first segment that could read as a URL scheme
// is prefixed with "./".
func rel(from, to string) string {
	// common is the length of the folders from and to share, whole
	// folders only: up to just after the last "/" both have in place.
	common := 0
	for k := 0; k < len(from) && k < len(to) && from[k] == to[k]; k++ {
		if from[k] == '/' {
			common = k + 1
		}
	}
	ups := strings.Count(from[common:], "/")
	rest := to[common:]
	var b strings.Builder
	b.Grow(3*ups + len(rest) + 2)
	for range ups {
		b.WriteString("../")
	}
	if plainPath(rest) {
		b.WriteString(rest)
	} else {
		for j, s := range strings.Split(rest, "/") {
			if j > 0 {
				b.WriteByte('/')
			}
			b.WriteString(url.PathEscape(s))
		}
	}
	out := b.String()
	if first, _, _ := strings.Cut(out, "/"); strings.Contains(first, ":") || out == "" {
		out = "./" + out
	}
	return out
}

// plainPath reports whether p holds only bytes no path segment escapes
// (letters, digits, "-._~") and slashes: the usual slug path, written as it
// is.
func plainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
			return false
		}
	}
	return true
}

// absURL joins the site URL and a path relative to the output root, with a
// folder's page (layout.Index) left out ("https://x/c/v/l/n/").
func absURL(site, p string) string {
	if !strings.HasSuffix(site, "/") {
		site += "/"
	}
	p = strings.TrimSuffix(p, layout.Index)
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return site + strings.Join(segs, "/")
}
