package markdown

import (
	"bytes"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"golang.org/x/net/html"
	"golang.org/x/text/unicode/norm"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/slug"
	"github.com/curex/curex/exporter/internal/testtrees"
)

// memWriter keeps written files in memory and refuses to write a file
// twice or a path that is not clean and relative.
type memWriter struct {
	mu    sync.Mutex
	files map[string][]byte
	order []string
}

func newMemWriter() *memWriter { return &memWriter{files: map[string][]byte{}} }

func (w *memWriter) Write(rel string, data []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, dup := w.files[rel]; dup {
		return fmt.Errorf("%s written twice", rel)
	}
	w.files[rel] = data
	w.order = append(w.order, rel)
	return nil
}

func (w *memWriter) names() []string { return slices.Sorted(maps.Keys(w.files)) }

// bundleFiles returns the files of the bundle of e, keyed by their path
// within the bundle folder.
func (w *memWriter) bundleFiles(e Entry) map[string][]byte {
	out := map[string][]byte{}
	for name, data := range w.files {
		if rest, ok := strings.CutPrefix(name, e.Dir); ok {
			out[rest] = data
		}
	}
	return out
}

// write writes t's bundle with o into a new memWriter.
func write(tb testing.TB, t *model.Tree, o Options) (*memWriter, Entry) {
	tb.Helper()
	w := newMemWriter()
	e, err := Write(w, t, o)
	if err != nil {
		tb.Fatal(err)
	}
	return w, e
}

// sample returns the published tree of the sample export at dir.
func sample(tb testing.TB, dir string) *model.Tree {
	tb.Helper()
	return testtrees.Sample(tb).Find(tb, dir).PublishedOnly()
}

// splitFrontMatter returns the YAML between the opening and closing "---"
// lines of a file, and the body after it.
func splitFrontMatter(tb testing.TB, data []byte) (yml, body string) {
	tb.Helper()
	s := string(data)
	rest, ok := strings.CutPrefix(s, "---\n")
	if !ok {
		tb.Fatalf("no front matter in %.80q", s)
	}
	end := strings.Index(rest, "\n---\n")
	if end < 0 {
		tb.Fatalf("front matter not closed in %.80q", s)
	}
	return rest[:end+1], rest[end+5:]
}

// safeRel reports whether rel, a path written by Write, is a clean
// relative path inside the bundle made of safe segments.
func safeRel(e Entry, rel string) bool {
	if rel == e.Zip {
		return true
	}
	inner, ok := strings.CutPrefix(rel, e.Dir)
	if inner == "SUMMARY.md" {
		return true
	}
	if !ok || inner == "" || path.Clean(inner) != inner || !strings.HasSuffix(inner, ".md") {
		return false
	}
	for _, seg := range strings.Split(inner, "/") {
		if seg == "" || seg == "." || seg == ".." || len(seg) > 80 || !utf8.ValidString(seg) ||
			!norm.NFC.IsNormalString(seg) || strings.ToLower(seg) != seg || slug.Reserved(seg) {
			return false
		}
		for _, r := range seg { // the letters of a slug, in any script
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc) || r == '-' || r == '.' || r == '_') {
				return false
			}
		}
	}
	return true
}

// gfm parses Markdown as GitHub does (CommonMark with the GFM extensions)
// and renders it without raw HTML, which shows as "<!-- raw HTML omitted -->".
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// links returns the destinations of every link and image in a Markdown
// body.
func links(body string) []string {
	src := []byte(body)
	doc := gfm.Parser().Parse(text.NewReader(src))
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			out = append(out, string(n.Destination))
		case *ast.Image:
			out = append(out, string(n.Destination))
		}
		return ast.WalkContinue, nil
	})
	return out
}

// checkLinks fails unless every relative link of every file of a bundle
// resolves to a file of the bundle. It returns the number of relative
// links seen.
func checkLinks(tb testing.TB, files map[string][]byte) int {
	tb.Helper()
	return checkLinksOf(tb, files, func(string) bool { return true })
}

// checkLinksOf checks the links of the files that of selects.
func checkLinksOf(tb testing.TB, files map[string][]byte, of func(name string) bool) int {
	tb.Helper()
	count := 0
	for name, data := range files {
		if !of(name) {
			continue
		}
		body := string(data)
		if strings.HasPrefix(body, "---\n") {
			_, body = splitFrontMatter(tb, data)
		}
		for _, dest := range links(body) {
			u, err := url.Parse(dest)
			if err != nil {
				tb.Errorf("%s: link %q does not parse: %v", name, dest, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" || strings.HasPrefix(dest, "/") || u.Path == "" {
				continue // absolute, or a fragment of the same page
			}
			count++
			target := path.Join(path.Dir(name), u.Path)
			if strings.HasPrefix(target, "../") || target == ".." {
				tb.Errorf("%s: link %q leaves the bundle", name, dest)
				continue
			}
			if _, ok := files[target]; !ok {
				tb.Errorf("%s: link %q points at %s, which is not in the bundle", name, dest, target)
			}
		}
	}
	return count
}

// renderHTML renders a Markdown body as GitHub would, raw HTML left out.
func renderHTML(tb testing.TB, body string) string {
	tb.Helper()
	var buf bytes.Buffer
	if err := gfm.Convert([]byte(body), &buf); err != nil {
		tb.Fatal(err)
	}
	return buf.String()
}

// anchor is one <a> of rendered HTML.
type anchor struct{ href, text string }

// htmlInfo is what tests look at in rendered HTML: the text of each
// heading by level, the links of each list item, and the names of all
// elements.
type htmlInfo struct {
	headings map[int][]string
	items    [][]anchor
	elements map[string]int
}

func inspect(tb testing.TB, doc string) htmlInfo {
	tb.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		tb.Fatal(err)
	}
	info := htmlInfo{headings: map[int][]string{}, elements: map[string]int{}}
	var textOf func(n *html.Node) string
	textOf = func(n *html.Node) string {
		if n.Type == html.TextNode {
			return n.Data
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			b.WriteString(textOf(c))
		}
		return b.String()
	}
	var anchors func(n *html.Node, out *[]anchor)
	anchors = func(n *html.Node, out *[]anchor) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "ul" {
				continue // nested list: its own items
			}
			if c.Type == html.ElementNode && c.Data == "a" {
				a := anchor{text: textOf(c)}
				for _, at := range c.Attr {
					if at.Key == "href" {
						// as the browser resolves it: a name in another
						// script is percent-encoded in the HTML
						a.href = at.Val
						if u, err := url.PathUnescape(at.Val); err == nil {
							a.href = u
						}
					}
				}
				*out = append(*out, a)
				continue
			}
			anchors(c, out)
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			info.elements[n.Data]++
			switch n.Data {
			case "h1", "h2", "h3", "h4", "h5", "h6":
				level := int(n.Data[1] - '0')
				info.headings[level] = append(info.headings[level], textOf(n))
			case "li":
				var as []anchor
				anchors(n, &as)
				info.items = append(info.items, as)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return info
}
