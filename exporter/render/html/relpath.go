package html

import (
	"net/url"
	"strings"
)

// rel returns the relative URL from the page at from to the file at to,
// both relative to the output root with forward slashes
// ("a/b/x/index.html", "a/c/index.html" → "../../c/index.html"). Every
// segment is escaped, and a first segment that could read as a URL scheme
// is prefixed with "./".
func rel(from, to string) string {
	fd := strings.Split(from, "/")
	fd = fd[:len(fd)-1] // the page's folder
	ts := strings.Split(to, "/")
	i := 0
	for i < len(fd) && i < len(ts)-1 && fd[i] == ts[i] {
		i++
	}
	var b strings.Builder
	for range len(fd) - i {
		b.WriteString("../")
	}
	for j, s := range ts[i:] {
		if j > 0 {
			b.WriteByte('/')
		}
		b.WriteString(url.PathEscape(s))
	}
	out := b.String()
	if first, _, _ := strings.Cut(out, "/"); strings.Contains(first, ":") || out == "" {
		out = "./" + out
	}
	return out
}

// absURL joins the site URL and a path relative to the output root, with a
// page's "index.html" left out ("https://x/c/v/l/n/").
func absURL(site, p string) string {
	if !strings.HasSuffix(site, "/") {
		site += "/"
	}
	p = strings.TrimSuffix(p, "index.html")
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return site + strings.Join(segs, "/")
}
